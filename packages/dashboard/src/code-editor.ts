/**
 * The CodeMirror 6 part of the JSON editor (json-editor.tsx), in its own chunk: JSON highlighting,
 * line numbers, folding, bracket matching, undo, and the parse error marked at its line.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, ensureSyntaxTree, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, linter } from '@codemirror/lint';
import { EditorState, type Text } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';

/** The editor's look: the page's font and colours, a frame like the other inputs, `rows` lines high at least; it grows with its text. */
const theme = (rows: number) =>
  EditorView.theme({
    '&': { border: '1px solid var(--line)', borderRadius: '6px', background: 'var(--panel)', color: 'var(--text)', fontSize: '13px' },
    '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '1px' },
    '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', minHeight: `${rows * 1.45}em` },
    '.cm-gutters': { background: 'var(--bg)', borderRight: '1px solid var(--line)', color: 'var(--muted)' },
  });

/** Where a JSON error is: the line and column people count from 1. */
export interface ErrorPlace {
  line: number;
  column: number;
}

/**
 * Where the text stops being JSON. Today's V8 (Chromium, Node) no longer names a position in most
 * JSON.parse errors, and @codemirror/lang-json's linter then marks the first character; the JSON
 * grammar's syntax tree (Lezer, with error recovery) has an error node right where it went wrong.
 */
function firstError(doc: Text, state: EditorState): number | undefined {
  const text = doc.toString();
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    let at: number | undefined;
    ensureSyntaxTree(state, doc.length, 200)?.iterate({
      enter: (n) => {
        if (at === undefined && n.type.isError) at = n.from;
        return at === undefined;
      },
    });
    return Math.min(at ?? text.trimEnd().length, doc.length);
  }
}

/** Marks the JSON error at its place, and tells `report` its line and column (or null when the text is JSON). */
const jsonLinter = (report: (place: ErrorPlace | null) => void) =>
  linter(
    (view): Diagnostic[] => {
      const { doc } = view.state;
      const at = firstError(doc, view.state);
      if (at === undefined) {
        report(null);
        return [];
      }
      const line = doc.lineAt(at);
      report({ line: line.number, column: at - line.from + 1 });
      return [{ from: at, to: Math.min(at + 1, doc.length), severity: 'error', message: 'Not valid JSON here' }];
    },
    { delay: 150 },
  );

/**
 * A JSON editor view in a shadow root of `host`: there CodeMirror's styles are constructed style
 * sheets (adoptedStyleSheets), which the dashboard's Content-Security-Policy (style-src 'self', no
 * inline <style>) allows. `onChange` hears every edit, `onError` where the JSON error is.
 */
export function jsonView(
  host: HTMLElement,
  o: { doc: string; label: string; rows: number; onChange: (text: string) => void; onError: (place: ErrorPlace | null) => void },
): EditorView {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  return new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: o.doc,
      extensions: [
        lineNumbers(),
        foldGutter(),
        lintGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle),
        json(),
        jsonLinter(o.onError),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.lineWrapping,
        // aria-label, not aria-labelledby: ids do not reach into the shadow root.
        EditorView.contentAttributes.of({ 'aria-label': o.label, spellcheck: 'false' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) o.onChange(u.state.doc.toString());
        }),
        theme(o.rows),
      ],
    }),
  });
}
