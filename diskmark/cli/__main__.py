import sys

from diskmark.cli import main

sys.exit(main())
