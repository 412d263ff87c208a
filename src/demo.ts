/** Placeholder until the demo lands with the client library. */
export async function runDemo(): Promise<number> {
  process.stderr.write("hookgate demo: not built yet\n");
  return 1;
}
