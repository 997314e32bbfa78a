// Drives one real client's automatic persisted query link against a running API, for
// tests/http/test_apq_clients.py: `node run.mjs apollo|urql <url>`, with the plan as JSON on stdin:
// {"free": "<document>", "manifest": {"operations": [...]}, "tools": {"<name>": {variables}}}.
// Prints JSON: for the free document sent twice, and for each tool sent by its manifest id, the
// data and errors the client gave, and every HTTP exchange it made (method, whether the text and the
// hash were sent, the status and the error codes answered).
import { createHash } from "node:crypto";

import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client/core/index.js";
import { createPersistedQueryLink } from "@apollo/client/link/persisted-queries/index.js";
import { generatePersistedQueryIdsFromManifest } from "@apollo/persisted-query-lists";
import { Client, fetchExchange } from "@urql/core";
import { persistedExchange } from "@urql/exchange-persisted";

const sha256 = (text) => createHash("sha256").update(text).digest("hex");

function recorder(exchanges) {
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const method = (init.method ?? "GET").toUpperCase();
    const sent = method === "GET" ? Object.fromEntries(url.searchParams) : JSON.parse(init.body);
    const extensions = typeof sent.extensions === "string" ? JSON.parse(sent.extensions) : sent.extensions;
    const response = await fetch(input, init);
    const body = await response.clone().json();
    exchanges.push({
      method,
      query: typeof sent.query === "string" && sent.query.length > 0,
      hash: extensions?.persistedQuery?.sha256Hash ?? null,
      status: response.status,
      codes: (body.errors ?? []).map((error) => error.extensions?.code),
    });
    return response;
  };
}

function apollo(url, manifest, exchanges) {
  const http = new HttpLink({ uri: url, fetch: recorder(exchanges) });
  const automatic = new ApolloClient({
    link: createPersistedQueryLink({ sha256 }).concat(http),
    cache: new InMemoryCache(),
  });
  const listed = new ApolloClient({
    link: createPersistedQueryLink(generatePersistedQueryIdsFromManifest({ loadManifest: () => manifest })).concat(
      http,
    ),
    cache: new InMemoryCache({ addTypename: false }),
  });
  const run = async (client, text, variables) => {
    try {
      const result = await client.query({ query: gql(text), variables, fetchPolicy: "network-only" });
      return { data: result.data, errors: result.errors ?? null };
    } catch (error) {
      return { data: null, errors: [error.message] };
    }
  };
  return { free: (text) => run(automatic, text, {}), tool: (text, variables) => run(listed, text, variables) };
}

function urql(url, manifest, exchanges) {
  const ids = Object.fromEntries(manifest.operations.map((operation) => [operation.name, operation.id]));
  const client = (generateHash) =>
    new Client({
      url,
      fetch: recorder(exchanges),
      requestPolicy: "network-only",
      exchanges: [persistedExchange(generateHash ? { generateHash } : {}), fetchExchange],
    });
  const automatic = client(null);
  const byName = (query, document) => {
    const operation = document.definitions.find((definition) => definition.kind === "OperationDefinition");
    return Promise.resolve(ids[operation.name.value]);
  };
  const listed = client(byName);
  const run = async (instance, text, variables) => {
    const result = await instance.query(text, variables).toPromise();
    return { data: result.data ?? null, errors: result.error ? [result.error.message] : null };
  };
  return { free: (text) => run(automatic, text, {}), tool: (text, variables) => run(listed, text, variables) };
}

async function main() {
  const [kind, url] = process.argv.slice(2);
  const plan = JSON.parse(await new Response(process.stdin).text());
  const exchanges = [];
  const client = { apollo, urql }[kind](url, plan.manifest, exchanges);
  const traced = async (step) => {
    const start = exchanges.length;
    const result = await step();
    return { ...result, exchanges: exchanges.slice(start) };
  };
  const report = { free: [], tools: {} };
  for (let time = 0; time < 2; time += 1) {
    report.free.push(await traced(() => client.free(plan.free)));
  }
  const bodies = Object.fromEntries(plan.manifest.operations.map((operation) => [operation.name, operation.body]));
  for (const [name, variables] of Object.entries(plan.tools)) {
    report.tools[name] = await traced(() => client.tool(bodies[name], variables));
  }
  process.stdout.write(JSON.stringify(report));
}

await main();
