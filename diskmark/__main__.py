import sys

from diskmark.launch import main

sys.exit(main())
