"""`python -m atenrt ...` (and the `atenrt` script pip installs): the atenrt command line
installed with this package (atenrt/_native/bin/atenrt), or the program ATENRT_CLI names."""
import os
import sys
from pathlib import Path


def cli_path():
    named = os.environ.get("ATENRT_CLI")
    if named:
        return named
    installed = Path(__file__).resolve().parent / "_native" / "bin" / "atenrt"
    if installed.exists():
        return str(installed)
    raise SystemExit("atenrt: error: the atenrt command line is not installed with this package "
                     f"({installed} is missing); install the package with `pip install .` from the "
                     "atenrt checkout, or set ATENRT_CLI to the program (build/atenrt)")


def main():
    path = cli_path()
    os.execv(path, [path] + sys.argv[1:])


if __name__ == "__main__":
    main()
