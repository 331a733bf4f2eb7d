import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RULES, resolveRule, ruleFor } from '../../src/rules/resolve.ts';
import { compileMatcher } from '../../src/rules/matcher.ts';
import { checkFilter, validateRules } from '../../src/rules/validate.ts';
import type { Rule, RuleUser, Rules } from '../../src/rules/types.ts';
import { Itself } from '@svc/filter';

/** A resolved `$auth` value: compared with the field's value itself, never an array's elements (§10). */
const S = (v: unknown) => new Itself(v);

const VERIFIED: RuleUser = { id: 'u1', email: 'ann@example.com', emailVerified: true, appMetadata: { team: { id: 't1' }, level: 3, tags: ['a'], none: null } };
const UNVERIFIED: RuleUser = { id: 'u2', email: 'bob@example.com', emailVerified: false };

test('ruleFor: a collection entry replaces "*" whole; an absent operation is false; no rules is the default', () => {
  const rules: Rules = { todos: { read: 'signedIn' }, constructor: { delete: true }, '*': { read: true, create: true } };
  assert.equal(ruleFor(rules, 'todos', 'read'), 'signedIn');
  assert.equal(ruleFor(rules, 'todos', 'create'), false, 'not taken from "*"');
  assert.equal(ruleFor(rules, 'posts', 'create'), true);
  assert.equal(ruleFor(rules, 'posts', 'delete'), false);
  assert.equal(ruleFor(rules, 'constructor', 'delete'), true, 'a collection named constructor is data');
  assert.equal(ruleFor(rules, 'toString', 'read'), true, 'and a prototype name falls back to "*"');
  assert.equal(ruleFor({ todos: { read: true } }, 'posts', 'read'), false, 'no "*" entry: refused');
  assert.equal(ruleFor({}, 'posts', 'read'), false, 'an empty rules object refuses everything');
  assert.equal(ruleFor(undefined, 'posts', 'read'), true);
  assert.equal(ruleFor(undefined, 'posts', 'create'), false);
  assert.deepEqual(DEFAULT_RULES, { '*': { read: true } });
});

test('resolveRule: true, false, "signedIn" and a filter without a session', () => {
  assert.deepEqual(resolveRule(true, undefined), { kind: 'all' });
  assert.deepEqual(resolveRule(true, VERIFIED), { kind: 'all' });
  assert.deepEqual(resolveRule(false, VERIFIED), { kind: 'none' });
  assert.deepEqual(resolveRule('signedIn', undefined), { kind: 'session' });
  assert.deepEqual(resolveRule('signedIn', UNVERIFIED), { kind: 'all' });
  assert.deepEqual(resolveRule({ owner: { $auth: 'id' } }, undefined), { kind: 'session' });
});

const resolved = (rule: Rule, user: RuleUser) => {
  const r = resolveRule(rule, user);
  assert.equal(r.kind, 'filter');
  const filter = (r as { filter: Record<string, unknown> }).filter;
  checkFilter(filter); // the list compiler takes it as is
  return filter;
};
const NEVER = { $in: [] };

test("$auth operands become the user's values", () => {
  assert.deepEqual(resolved({ owner: { $auth: 'id' } }, VERIFIED), { owner: S('u1') });
  assert.deepEqual(resolved({ email: { $eq: { $auth: 'email' } } }, VERIFIED), { email: { $eq: S('ann@example.com') } });
  assert.deepEqual(resolved({ v: { $ne: { $auth: 'emailVerified' } } }, UNVERIFIED), { v: { $ne: S(false) } });
  assert.deepEqual(resolved({ team: { $auth: 'appMetadata.team.id' }, level: { $lte: { $auth: 'appMetadata.level' } } }, VERIFIED), {
    team: S('t1'),
    level: { $lte: S(3) },
  });
  assert.deepEqual(
    resolved({ $or: [{ public: true }, { members: { $in: [{ $auth: 'id' }, 'everyone'] } }], status: { $nin: ['x', { $auth: 'id' }] } }, VERIFIED),
    { $or: [{ public: true }, { members: { $in: [S('u1'), 'everyone'] } }], status: { $nin: ['x', S('u1')] } },
  );
  // $all is how a rule writes membership: a plain value, matched against an array's elements
  assert.deepEqual(resolved({ members: { $all: [{ $auth: 'id' }] } }, VERIFIED), { members: { $all: ['u1'] } });
  assert.deepEqual(resolved({ members: { $all: [{ $auth: 'email' }] } }, UNVERIFIED), { members: NEVER });
});

test('a $auth comparison matches only a scalar; $all matches an array holding the value', () => {
  const owner = compileMatcher(resolved({ owner: { $auth: 'id' } }, VERIFIED));
  const members = compileMatcher(resolved({ members: { $all: [{ $auth: 'id' }] } }, VERIFIED));
  const notOwner = compileMatcher(resolved({ owner: { $ne: { $auth: 'id' } } }, VERIFIED));
  const listed = compileMatcher(resolved({ owner: { $in: [{ $auth: 'id' }, 'x'] } }, VERIFIED));
  assert.equal(owner({ id: 'd', owner: 'u1' }), true);
  assert.equal(owner({ id: 'd', owner: ['u1'] }), false);
  assert.equal(notOwner({ id: 'd', owner: ['u1'] }), true);
  assert.equal(listed({ id: 'd', owner: ['u1'] }), false);
  assert.equal(listed({ id: 'd', owner: ['x'] }), true, 'a plain item of the list keeps array semantics');
  assert.equal(members({ id: 'd', members: ['u0', 'u1'] }), true);
  assert.equal(members({ id: 'd', members: 'u1' }), true);
  assert.equal(members({ id: 'd', members: ['u2'] }), false);
});

test('a missing or null $auth value makes each comparison using it false, $ne and $nin included', () => {
  // the e-mail counts only once verified
  assert.deepEqual(resolved({ email: { $auth: 'email' } }, UNVERIFIED), { email: NEVER });
  assert.deepEqual(resolved({ email: { $ne: { $auth: 'email' } } }, UNVERIFIED), { email: NEVER });
  assert.deepEqual(resolved({ email: { $nin: ['x', { $auth: 'email' }] } }, UNVERIFIED), { email: NEVER });
  assert.deepEqual(resolved({ email: { $gt: { $auth: 'email' } }, other: 1 }, UNVERIFIED), { email: NEVER, other: 1 });
  // in $in (an OR of equalities) only that equality is false
  assert.deepEqual(resolved({ members: { $in: [{ $auth: 'email' }, 'everyone'] } }, UNVERIFIED), { members: { $in: ['everyone'] } });
  assert.deepEqual(resolved({ members: { $in: [{ $auth: 'email' }] } }, UNVERIFIED), { members: { $in: [] } });
  // several operators on one field are ANDed: one false operator makes the field false
  assert.deepEqual(resolved({ a: { $exists: true, $ne: { $auth: 'appMetadata.nope' } } }, VERIFIED), { a: NEVER });
  // appMetadata: missing on the user, a missing path, null, or not a scalar
  for (const field of ['appMetadata.team.id', 'appMetadata.nope', 'appMetadata.none', 'appMetadata.team', 'appMetadata.tags', 'appMetadata.team.id.x']) {
    assert.deepEqual(resolved({ f: { $auth: field } }, field === 'appMetadata.team.id' ? UNVERIFIED : VERIFIED), { f: NEVER }, field);
  }
  assert.deepEqual(resolved({ $or: [{ a: { $auth: 'email' } }, { b: 1 }] }, UNVERIFIED), { $or: [{ a: NEVER }, { b: 1 }] });
});

test('a never-true comparison never matches, not even a missing or null field', () => {
  const m = compileMatcher(resolved({ email: { $ne: { $auth: 'email' } } }, UNVERIFIED));
  for (const doc of [{}, { email: null }, { email: 'x' }, { email: ['x'] }]) assert.equal(m({ id: 'd', ...doc }), false, JSON.stringify(doc));
  const owner = compileMatcher(resolved({ owner: { $auth: 'id' } }, VERIFIED));
  assert.equal(owner({ id: 'd', owner: 'u1' }), true);
  assert.equal(owner({ id: 'd', owner: ['u1'] }), false, 'a $auth comparison matches only a scalar equal to it');
  assert.equal(owner({ id: 'd' }), false);
});

test('fields named like prototype members stay fields through resolution', () => {
  const rule = JSON.parse('{"__proto__": {"$auth": "id"}, "constructor": {"$ne": {"$auth": "id"}}}') as Record<string, unknown>;
  validateRules({ posts: { read: rule } });
  const filter = resolved(rule, VERIFIED);
  assert.deepEqual(Object.keys(filter), ['__proto__', 'constructor']);
  assert.equal(Object.getPrototypeOf(filter), Object.prototype);
  assert.deepEqual(Object.entries(filter), [
    ['__proto__', S('u1')],
    ['constructor', { $ne: S('u1') }],
  ]);
  const m = compileMatcher(filter);
  assert.equal(m(JSON.parse('{"id": "d", "__proto__": "u1", "constructor": "x"}')), true);
  assert.equal(m({ id: 'd', constructor: 'x' }), false, 'a missing __proto__ field does not match');
});

test('resolution leaves the stored rule untouched', () => {
  const rule = { owner: { $auth: 'id' }, m: { $in: [{ $auth: 'email' }] } };
  const copy = structuredClone(rule);
  resolved(rule, UNVERIFIED);
  assert.deepEqual(rule, copy);
});
