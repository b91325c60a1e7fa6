from ascendc_lsp.cli import main

raise SystemExit(main())
