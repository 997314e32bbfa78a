"""isnad-graphql: a read-only GraphQL API over the hadith and narrator graph."""
