"""`isnad-graphql audit`: what a built database claims, measured against the evidence it rests on.

Each area of the import (chains, rijal, references and commentary) names its measures in a module of
its own as a tuple of `Section`s; `ingest.audit.report` runs them all and prints one table each.
"""
