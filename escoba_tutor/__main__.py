"""``python -m escoba_tutor …`` is the ``escoba-tutor …`` command."""

import sys

from .cli import main

if __name__ == "__main__":  # not when a tool imports the module (pytest's doctest collection does)
    sys.exit(main())
