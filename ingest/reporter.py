"""Every line the import and the audit print: progress, tables, skipped rows, the outcome.

What it prints is text, never rich markup, emoji codes or highlighting: a row's «[/b]» raised rich's
MarkupError, and «:100:» became an emoji. Data reach the terminal as the files wrote them.
"""

from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

EXAMPLES_SHOWN = 5  # skipped rows shown per file
LEFT_COLUMNS = frozenset({"table", "collection", "work", "origin"})


def _cell(value: object) -> Text:
    return Text(f"{value:,}" if isinstance(value, int) else str(value))


class Reporter:
    def __init__(self, console: Console) -> None:
        self.console = console

    def line(self, text: str, style: str = "") -> None:
        """One line, never wrapped by the console (a terminal wraps it; a log keeps it whole)."""
        self.console.print(Text(text, style=style), soft_wrap=True)

    def progress(self) -> Progress:
        return Progress(
            TextColumn("{task.description:<40}", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )

    def table(self, title: str, records: Sequence[Mapping[str, object]]) -> None:
        if not records:
            self.line(f"{title}: none")
            return
        table = Table(title=Text(title), title_justify="left")
        for column in records[0]:
            table.add_column(Text(column), justify="left" if column in LEFT_COLUMNS else "right")
        for record in records:
            table.add_row(*(_cell(value) for value in record.values()))
        self.console.print(table)

    def bad_rows(self, bad: Sequence[str]) -> None:
        """Per file, how many rows were skipped and the first of them."""
        by_file: dict[str, list[str]] = {}
        for example in bad:
            by_file.setdefault(example.split(":", 1)[0], []).append(example)
        for path, examples in by_file.items():
            self.line(f"{len(examples)} malformed rows skipped in {path}; first:")
            for example in examples[:EXAMPLES_SHOWN]:
                self.line(f"  {example}")

    def failed(self, reason: object) -> None:
        self.line(f"import failed, the database is unchanged: {reason}", style="red")
