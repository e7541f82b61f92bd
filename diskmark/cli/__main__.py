import sys

from diskmark.cli.main import main

sys.exit(main())
