"""``python -m symbolic_noise ...`` runs the ``symbolic-noise`` command line.

>>> import subprocess, sys
>>> out = subprocess.run([sys.executable, "-m", "symbolic_noise", "nimsum", "3", "4", "5"],
...                      capture_output=True, text=True)
>>> out.returncode, out.stdout.splitlines()[1]
(0, 'winning moves: 3->1')
"""

import sys

from .io.cli import main

if __name__ == "__main__":
    sys.exit(main())
