"""``python -m dreamgit``: the same as the ``dreamgit`` command."""

from dreamgit.cli import main

if __name__ == "__main__":
    main()
