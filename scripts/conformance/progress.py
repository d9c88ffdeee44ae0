"""Progress while ctest runs: a bar redrawn in place on a terminal, plain lines elsewhere (CI logs):
every case that does not pass, and a count every tenth of the way."""
import shutil
import sys
import time


class Progress:
    def __init__(self, total, stream=sys.stdout):
        self.total, self.done, self.stream = total, 0, stream
        self.counts = {"pass": 0, "fail": 0, "not run": 0}
        self.tty = stream.isatty()
        self.start = time.monotonic()
        self.next_line = 0

    def update(self, label, status):
        self.done += 1
        key = "pass" if status == "Passed" else "not run" if "Skipped" in status or "Not Run" in status else "fail"
        self.counts[key] += 1
        if self.tty:
            width = shutil.get_terminal_size((100, 20)).columns
            if key == "fail":  # above the bar, which is redrawn below it
                self.stream.write(f"\r{f'FAIL {label} ({status})':<{width - 1}}\n")
            bar = 30
            filled = bar * self.done // max(self.total, 1)
            text = (f"\r[{'#' * filled}{'.' * (bar - filled)}] {self.done}/{self.total} pass {self.counts['pass']} "
                    f"fail {self.counts['fail']} not run {self.counts['not run']}  {label}")
            self.stream.write(text[:width - 1].ljust(width - 1))
        else:
            if key == "fail":
                self.stream.write(f"FAIL {label} ({status})\n")
            if self.done >= self.next_line or self.done == self.total:
                self.stream.write(f"[conformance] {self.done}/{self.total} done, {self.counts['fail']} failed, "
                                  f"{int(time.monotonic() - self.start)} s\n")
                self.next_line = self.done + max(self.total // 10, 1)
        self.stream.flush()

    def finish(self):
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()
