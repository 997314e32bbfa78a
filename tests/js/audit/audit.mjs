// graphql-http's conformance audit of a GraphQL-over-HTTP server: node audit.mjs <url>
// Prints one JSON line per audit: {id, name, status, reason}; status is ok, warn, notice or error.
import { auditServer } from "graphql-http";

const url = process.argv[2];
if (!url) {
  console.error("usage: node audit.mjs <url of the /graphql endpoint>");
  process.exit(2);
}
const results = await auditServer({ url });
for (const result of results) {
  const reason = result.status === "ok" ? null : result.reason;
  console.log(JSON.stringify({ id: result.id, name: result.name, status: result.status, reason }));
}
