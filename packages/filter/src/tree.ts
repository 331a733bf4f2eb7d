/**
 * The typed tree a filter (API.md §1, §1.1) is parsed into, once: the in-memory matcher, the
 * server's SQL of each store and the SDK's offline replica all read this, never the raw JSON.
 */

/** A scalar operand of the language. */
export type Scalar = string | number | boolean | null;

/** The system fields: strings at the top of a document, kept in columns by the server. */
export type SystemField = 'id' | 'createdAt' | 'updatedAt';

/** Where a condition looks: a system field, or a path into the document's own fields. */
export type FieldRef = { system: SystemField } | { path: string[] };

/**
 * An operand. `itself`: it compares with the field's value itself, never with the elements of an
 * array the field holds (what a rule's `$auth` operand becomes, §10).
 */
export interface Operand<T extends Scalar = Scalar> {
  value: T;
  itself: boolean;
}

export type RangeOp = '$gt' | '$gte' | '$lt' | '$lte';

/** One operator on a field (or, inside `$elemMatch`'s operator form, on an element itself). */
export type Condition =
  | { op: '$eq' | '$ne' | RangeOp; operand: Operand }
  | { op: '$in' | '$nin'; operands: Operand[] }
  | { op: '$all'; values: Scalar[] }
  | { op: '$exists'; value: boolean }
  | { op: '$size'; value: number }
  | { op: '$prefix' | '$icontains'; operand: Operand<string> }
  | { op: '$elemMatch'; match: ElementMatch }
  /** What a condition on a system field that no system value can meet becomes (`$size`, `$elemMatch`). */
  | { op: 'never' };

/** `$elemMatch`: a filter on an element's fields, or operators on the element itself. */
export type ElementMatch = { form: 'fields'; filter: Filter } | { form: 'operators'; conditions: Condition[] };

/**
 * A filter: the AND or OR of filters, or the conditions on one field (all must hold). An object
 * of the JSON form is the AND of its keys; `{}` is `{kind: 'and', parts: []}`, which every
 * document meets.
 */
export type Filter = { kind: 'and' | 'or'; parts: Filter[] } | { kind: 'field'; field: FieldRef; conditions: Condition[] };

/** A list's order (§1): a field, and whether descending. Ties break by `id` in the same direction. */
export interface Sort {
  field: FieldRef;
  desc: boolean;
}
