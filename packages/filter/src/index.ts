/**
 * @svc/filter: svc's query language (filters and sorts, API.md §1/§1.1), parsed once into a typed
 * tree that the server's SQL, its in-memory rule checks and the SDK's offline replica all read.
 * No server code: it runs in browsers as in Node.
 */
export type { Condition, ElementMatch, FieldRef, Filter, Operand, RangeOp, Scalar, Sort, SystemField } from './tree.js';
export { FilterError, fieldRef, filterPaths, MAX_CLAUSES, MAX_DEPTH, MAX_LIST, parseFilter, parseSort, type ParseOptions } from './parse.js';
export { matcher, matches, type Document } from './match.js';
export { compare, compareValues } from './order.js';
export { authFields, isAuthOperand, Itself, NEVER, resolveAuthOperands, type Substitute } from './auth.js';
export { casefold, compareCodePoints, isStorableString, parseFieldPath, prefixUpperBound } from './text.js';
