"""Why an import stops. Each message names the file and what it was for; nothing was changed."""


class ImportFailed(Exception):
    """The import stopped; the previous database is exactly as it was."""


class MissingInput(ImportFailed):
    def __init__(self, path: str, purpose: str, reason: str) -> None:
        super().__init__(f"{path}: {reason} (needed for {purpose})")


class TooManyBadRows(ImportFailed):
    def __init__(self, path: str, bad: int, total: int, examples: list[str]) -> None:
        shown = "; ".join(examples)
        super().__init__(f"{path}: {bad} of {total} rows are malformed (over 1%), import stopped. First: {shown}")


class ImportLocked(ImportFailed):
    def __init__(self) -> None:
        super().__init__(
            "another import is running against this database: wait for it to finish (or stop it), then import again"
        )


class ImportInterrupted(ImportFailed):
    def __init__(self) -> None:
        super().__init__("the import was interrupted (SIGINT or SIGTERM) and its build schema dropped")


class BuildRefused(ImportFailed):
    def __init__(self, error: Exception) -> None:
        super().__init__(
            f"the database refused the build ({type(error).__name__}: {error}): the data breaks a rule of "
            "ingest/schema.sql; the build schema is dropped"
        )


class UnreadableRecord(ImportFailed):
    def __init__(self, step: str, path: str | None, error: Exception) -> None:
        where = f"{path}: " if path else ""
        super().__init__(
            f"{where}a record of an unexpected shape ({type(error).__name__}: {error}) stopped the step "
            f"'{step}'; check the folder with `isnad-graphql verify-data`"
        )
