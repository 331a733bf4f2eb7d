// Preloaded into a `svc` process by memory.test.ts: prints the process's peak resident set size on exit.
process.on('exit', () => {
  process.stderr.write(`\nmax-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
