import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeDefaults, describeRule, summarize } from '../src/rules-summary.ts';

/** The summary as lines of text, `Read: …`. */
function lines(rules: unknown, collection: string): string[] {
  const s = summarize(rules, collection);
  assert.ok(s.ok, `not a summary: ${JSON.stringify(s)}`);
  return s.lines.map((l) => `${l.label}: ${l.who}`);
}

// The example of API.md §10.
const EXAMPLE = {
  todos: { read: { owner: { $auth: 'id' } }, create: { owner: { $auth: 'id' } }, update: { owner: { $auth: 'id' } }, delete: { owner: { $auth: 'id' } } },
  posts: { read: true, create: { authorId: { $auth: 'id' } }, update: false },
  '*': { read: true },
};

test('the four forms of a rule in words; absent is the same as false', () => {
  assert.deepEqual(lines(EXAMPLE, 'posts'), [
    'Read: anyone with the public key',
    'Create: signed-in users, when authorId equals their user id',
    'Update: nobody with the public key (secret key only)',
    'Delete: nobody with the public key (secret key only)',
  ]);
  assert.deepEqual(lines({ notes: { read: 'signedIn', create: 'signedIn' } }, 'notes').slice(0, 2), ['Read: signed-in users', 'Create: signed-in users']);
  assert.equal(lines(EXAMPLE, 'todos')[3], 'Delete: signed-in users, when owner equals their user id');
});

test('a collection entry replaces "*" whole: operations do not fall back one by one', () => {
  const rules = { posts: { create: true }, '*': { read: true } };
  assert.deepEqual(lines(rules, 'posts').slice(0, 2), ['Read: nobody with the public key (secret key only)', 'Create: anyone with the public key']);
  const s = summarize(rules, 'posts');
  assert.ok(s.ok && s.source.includes('entry for “posts”'));
});

test('a collection without an entry gets "*"; with no "*" either, public keys can do nothing there', () => {
  assert.equal(lines(EXAMPLE, 'comments')[0], 'Read: anyone with the public key');
  const s = summarize(EXAMPLE, 'comments');
  assert.ok(s.ok && s.source.includes('“*” entry applies'));
  assert.deepEqual(lines({ posts: { read: true } }, 'comments'), [
    'Read: nobody with the public key (secret key only)',
    'Create: nobody with the public key (secret key only)',
    'Update: nobody with the public key (secret key only)',
    'Delete: nobody with the public key (secret key only)',
  ]);
  const none = summarize({ posts: { read: true } }, 'comments');
  assert.ok(none.ok && none.source.includes('no “*” entry'));
  assert.equal(lines(EXAMPLE, '*')[0], 'Read: anyone with the public key', '"*" itself: any collection without an entry');
});

test('rules never written behave as {"*": {"read": true}}; written as {} they let public keys do nothing', () => {
  assert.deepEqual(lines(undefined, 'anything'), [
    'Read: anyone with the public key',
    'Create: nobody with the public key (secret key only)',
    'Update: nobody with the public key (secret key only)',
    'Delete: nobody with the public key (secret key only)',
  ]);
  const s = summarize(undefined, 'anything');
  assert.ok(s.ok && s.source.includes('No rules were ever set'));
  assert.ok(lines({}, 'anything').every((l) => l.endsWith('nobody with the public key (secret key only)')));
});

test('filters in words: operators, $auth fields, $and/$or, membership', () => {
  assert.equal(
    describeRule({ status: 'published', score: { $gte: 10, $lt: 20 } }),
    'signed-in users, when status equals "published" and score is at least 10 and score is less than 20',
  );
  assert.equal(describeRule({ members: { $all: [{ $auth: 'id' }] } }), 'signed-in users, when members contains all of their user id');
  assert.equal(describeRule({ email: { $auth: 'email' } }), 'signed-in users, when email equals their e-mail (once verified)');
  assert.equal(describeRule({ team: { $auth: 'appMetadata.team' } }), 'signed-in users, when team equals their appMetadata.team');
  assert.equal(
    describeRule({ $or: [{ public: true }, { owner: { $auth: 'id' } }] }),
    'signed-in users, when either (public equals true) or (owner equals their user id)',
  );
  assert.equal(
    describeRule({ tag: { $in: ['a', 'b'] }, deletedAt: null }),
    'signed-in users, when tag is one of "a", "b" and deletedAt is missing or empty (null)',
  );
  assert.equal(describeRule({ archived: { $exists: false } }), 'signed-in users, when archived is missing');
  assert.equal(
    describeRule({ items: { $elemMatch: { sku: 'a', qty: { $gte: 2 } } } }),
    'signed-in users, when items has an element where sku equals "a" and qty is at least 2',
  );
});

test('what is not a rule is said to be invalid, never guessed', () => {
  for (const bad of [{}, 'everyone', 1, [], { owner: { $auth: 'name' } }, { owner: { $regex: 'x' } }, { $where: 'x' }, { owner: { $in: 'x' } }]) {
    assert.match(describeRule(bad), /^not a valid rule/, JSON.stringify(bad));
  }
  const notObject = summarize([], 'posts');
  assert.ok(!notObject.ok && notObject.error.includes('JSON object'));
  const badEntry = summarize({ posts: true }, 'posts');
  assert.ok(!badEntry.ok && badEntry.error.includes('not an object'));
});

test('defaults in words: constants as JSON, $auth operands as what they stand for; shown only when the entry has them', () => {
  const rules = { todos: { defaults: { owner: { $auth: 'id' }, done: false }, create: { owner: { $auth: 'id' } } } };
  const s = summarize(rules, 'todos');
  assert.ok(s.ok);
  assert.equal(s.defaults, 'A create with the public key fills in, when it lacks them: owner = their user id, done = false');
  const none = summarize(EXAMPLE, 'todos');
  assert.ok(none.ok && none.defaults === undefined);
  assert.equal(describeDefaults({ owner: { $auth: 'name' } }), 'Defaults: not valid (the server will refuse them)');
});
