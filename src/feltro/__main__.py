from feltro.cli import main

main()
