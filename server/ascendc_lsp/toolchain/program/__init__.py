"""Direct-launch programs (a host main() with acl/acl.h and <<<>>> launches) on the emulator."""
