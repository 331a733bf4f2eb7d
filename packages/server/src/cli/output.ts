import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { ApiError } from '../errors.ts';
import { StoreUnavailable } from '../store/errors.ts';
import { openStore } from '../store/open-store.ts';
import type { Store } from '../store/store.ts';

/**
 * What every `svc` command shares: printing a result (a table or a sentence for people, one JSON
 * document under `--json`), opening the store, failing with one line, and the examples shown by
 * `--help`.
 */

/** A failure of the command line itself (bad input, a refused confirmation): printed as its message, exit code 1. */
export class CliError extends Error {}

/** How a command prints its result: `value` as one JSON document under --json, else `human()`. */
export type Printer = (value: unknown, human: () => string) => void;

let jsonOutput = false;

/** Set once the command line is parsed (cli.ts, from `--json` before or after the command). */
export function setJsonOutput(on: boolean): void {
  jsonOutput = on;
}

export const print: Printer = (value, human) => {
  console.log(jsonOutput ? JSON.stringify(value, null, 2) : human());
};

/** One column of a table: its header and how a row shows in it (null and undefined show as empty). */
export type Column<T> = [header: string, cell: (row: T) => string | number | boolean | null | undefined];

/**
 * Rows as a plain-text table: a header line, then one line per row, columns padded to their
 * widest cell and separated by two spaces (no trailing spaces). `empty` is printed instead when
 * there are no rows.
 */
export function table<T>(rows: readonly T[], columns: ReadonlyArray<Column<T>>, empty: string): string {
  if (rows.length === 0) return empty;
  const cells = [columns.map(([header]) => header), ...rows.map((row) => columns.map(([, cell]) => show(cell(row))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  return cells
    .map((line) =>
      line
        .map((c, i) => (i === line.length - 1 ? c : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function show(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value).replace(/\s+/g, ' ');
}

/** Opens the store of DATABASE_URL (migrating it, as a server does at start), runs `fn`, closes it. */
export async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = await openStore(config.databaseUrl, config.storeTimeouts);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/**
 * What went wrong, without a stack: one line `svc: <message> (<code>)`, then one indented line per
 * detail of a validation error (`  /path: message`); under --json one `{"error": {…}}` line.
 */
export function failureMessage(e: unknown): string {
  if (e instanceof ApiError) {
    if (jsonOutput) return JSON.stringify({ error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } });
    return [`svc: ${e.message} (${e.code})`, ...(e.details ?? []).map((d) => `  ${d.path}: ${d.message}`)].join('\n');
  }
  const message = messageOf(e);
  const code = e instanceof CliError ? 'bad_request' : e instanceof StoreUnavailable ? 'unavailable' : 'internal';
  return jsonOutput ? JSON.stringify({ error: { code, message } }) : `svc: ${message}`;
}

/** An error's message; a connection refused on every address of a host is an AggregateError with an empty one. */
function messageOf(e: unknown): string {
  if (e instanceof AggregateError && !e.message) return e.errors.map(messageOf).join('; ') || 'failed';
  if (e instanceof Error) return (e.message || e.name).split('\n')[0];
  return String(e);
}

const examples = new WeakMap<Command, string>();

/** Gives a command its example: shown under its own --help, and on its line of `svc --help`. */
export function example(command: Command, first: string, ...more: string[]): Command {
  examples.set(command, first);
  const lines = [first, ...more];
  command.addHelpText('after', `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  return command;
}

/** Records the example of a command that prints its own help text (export, import, backup), for `svc --help` only. */
export function listedExample(command: Command | undefined, line: string): void {
  if (command && !examples.has(command)) examples.set(command, line);
}

/** Every command under `root` that runs something (not a group, not `help`), with its path of names. */
function leaves(root: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  return root.commands
    .filter((c) => c.name() !== 'help')
    .flatMap((c) => (c.commands.length ? leaves(c, [...path, c.name()]) : [{ path: [...path, c.name()].join(' '), command: c }]));
}

/** The "every command with an example" list after the help of `svc` and of each command group. */
export function examplesHelp(root: Command): string {
  const rows = leaves(root);
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.path.length));
  const lines = rows.map(({ path, command }) => `  ${path.padEnd(width)}  ${examples.get(command) ?? `svc ${path} --help`}`);
  return `\nEvery command, with an example (svc <command> --help shows its options):\n${lines.join('\n')}`;
}
