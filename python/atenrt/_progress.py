"""A progress line on stderr for exports and compiles that run over a second: only when stderr is
a terminal, so pipes, logs and captured test output never see it. The same switches as the CLI:
ATENRT_PROGRESS=1 forces it (plain lines), =0 turns it off; ATENRT_PROGRESS_DELAY_MS (default
1000) is how long the work runs before the line shows."""
import os
import sys
import threading
import time

__all__ = ["progress"]


def _delay():
    try:
        ms = int(os.environ.get("ATENRT_PROGRESS_DELAY_MS", "1000"))
    except ValueError:
        ms = 1000
    return ms / 1000 if 0 <= ms <= 3600000 else 1.0


class progress:
    """with progress("exporting ResNet", "exported ResNet"): ..."""

    def __init__(self, doing, done):
        self.doing, self.done = doing, done
        stream = sys.stderr
        self.terminal = bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())
        setting = os.environ.get("ATENRT_PROGRESS")
        self.on = setting == "1" or (setting != "0" and self.terminal)
        self.shown = False

    def __enter__(self):
        if not self.on:
            return self
        self.start = time.monotonic()
        self.finished = threading.Event()
        self.thread = threading.Thread(target=self._show, name="atenrt-progress", daemon=True)
        self.thread.start()
        return self

    def _show(self):
        if self.finished.wait(_delay()):
            return
        self.shown = True
        if not self.terminal:  # forced into a pipe: one plain line now, one at the end
            sys.stderr.write(f"atenrt: {self.doing} ...\n")
            sys.stderr.flush()
            return
        while True:
            sys.stderr.write(f"\ratenrt: {self.doing} ... {time.monotonic() - self.start:.1f} s\033[K")
            sys.stderr.flush()
            if self.finished.wait(0.25):
                return

    def __exit__(self, kind, value, tb):
        if not self.on:
            return False
        self.finished.set()
        self.thread.join()
        if self.shown:
            if kind is not None:  # failing: the exception follows on its own line
                sys.stderr.write("\n" if self.terminal else "")
            else:
                took = time.monotonic() - self.start
                sys.stderr.write(f"\ratenrt: {self.done} in {took:.1f} s\033[K\n" if self.terminal
                                 else f"atenrt: {self.done} in {took:.1f} s\n")
            sys.stderr.flush()
        return False
