// client.rules (API.md §10, management) against a real server, and the hand-written rule types
// checked against the ones generated from the server's schema.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError, type Rule, type Rules } from '../src/index.ts';
import type { ResponseBody } from '../src/types.ts';
import { fixture, type Fixture } from './helpers.ts';

// Compile-time: the precise SDK types fit what the server's schema says a rule is…
type ServerRules = ResponseBody<'/v1/rules', 'get', 200>['rules'];
const fitsTheServer = (r: Rules): ServerRules => r;
// …and catch what the server would refuse with invalid_rules.
// @ts-expect-error: 'phone' is not a $auth field
const badAuthField: Rule = { owner: { $auth: 'phone' } };
// @ts-expect-error: 'write' is not an operation
const badOperation: Rules = { todos: { write: true } };
// @ts-expect-error: none of the four forms
const badForm: Rule = 'anyone';
const goodRules: Rules = {
  todos: { read: { owner: { $auth: 'id' } }, create: { owner: { $auth: 'id' } }, update: { owner: { $auth: 'id' } }, delete: { owner: { $auth: 'id' } } },
  team: { read: { $or: [{ editor: { $auth: 'id' } }, { team: { $in: [{ $auth: 'appMetadata.team.id' }, 'everyone'] } }] } },
  posts: { read: true, create: { authorId: { $auth: 'id' } }, update: false },
  notes: { read: 'signedIn', delete: { email: { $eq: { $auth: 'email' } }, verified: { $auth: 'emailVerified' } } },
  '*': { read: true },
};
// Membership as §10 writes it (the $all operator is §1.1's).
const membership: Rule = { members: { $all: [{ $auth: 'id' }] } };
void [fitsTheServer, badAuthField, badOperation, badForm, membership];

describe('rules', () => {
  let f: Fixture;
  before(async () => {
    f = await fixture();
  });
  after(async () => {
    await f.close();
  });

  test('get answers the default, set replaces the rules whole and get answers them as written', async () => {
    const admin = f.admin();
    assert.deepEqual(await admin.rules.get(), { '*': { read: true } }, 'none set: public keys read everything, write nothing');
    assert.deepEqual(await admin.rules.set(goodRules), goodRules);
    assert.deepEqual(await admin.rules.get(), goodRules);
    const only = { todos: { read: { owner: { $auth: 'id' } } } } satisfies Rules;
    assert.deepEqual(await admin.rules.set(only), only);
    assert.deepEqual(Object.keys(await admin.rules.get()), ['todos'], 'replaced whole, nothing merged');
  });

  test('invalid rules: 400 invalid_rules with the path of each problem, and nothing stored', async () => {
    const admin = f.admin();
    const before = await admin.rules.get();
    const bad = { todos: { read: { owner: { $auth: 'phone' } }, write: true }, 'my posts': { read: true } } as unknown as Rules;
    await assert.rejects(admin.rules.set(bad), (e: unknown) => {
      assert.ok(e instanceof SvcError && e.status === 400 && e.code === 'invalid_rules', String(e));
      const paths = (e.details ?? []).map((d) => d.path).sort();
      assert.deepEqual(paths, ['/rules/my posts', '/rules/todos/read', '/rules/todos/write']);
      assert.ok(e.details!.every((d) => typeof d.message === 'string' && d.message.length > 0));
      return true;
    });
    assert.deepEqual(await admin.rules.get(), before);
  });

  test('a public key may neither read nor write the rules', async () => {
    const pub = f.browser();
    const readOnly = (e: unknown) => e instanceof SvcError && e.status === 403 && e.code === 'read_only_key';
    await assert.rejects(pub.rules.get(), readOnly);
    await assert.rejects(pub.rules.set({ '*': { read: true, create: true } }), readOnly);
  });
});
