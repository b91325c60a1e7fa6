"""toolchain/emulator"""
