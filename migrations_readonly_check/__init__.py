"""Proof that the service and everything it ships never write: a static check of the code and a
live check against the database (`isnad-graphql check-readonly`)."""
