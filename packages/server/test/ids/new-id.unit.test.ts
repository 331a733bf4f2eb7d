import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../../src/ids/ids.ts';

/** Document ids the service chooses (src/ids/ids.ts): UUIDv7, sortable by creation time. */

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('every id is a canonical lower-case UUIDv7 (version 7, RFC 9562 variant)', () => {
  for (let i = 0; i < 20_000; i++) assert.match(newId(), UUID_V7);
});

test('ids made one after another sort in the order they were made, within a millisecond too', () => {
  let previous = newId();
  for (let i = 0; i < 100_000; i++) {
    const id = newId();
    assert.ok(id > previous, `${id} after ${previous}`);
    previous = id;
  }
});

test('the first 48 bits are the Unix time in milliseconds', () => {
  const before = Date.now();
  const id = newId();
  const after = Date.now();
  const ms = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  // Within the call, or a little later when ids of this millisecond ran the counter over (never here).
  assert.ok(ms >= before && ms <= after + 1, `${ms} not within ${before}..${after}`);
});

test('ids differ in their random bits', () => {
  const tails = new Set(Array.from({ length: 5000 }, () => newId().slice(-12)));
  assert.equal(tails.size, 5000);
});
