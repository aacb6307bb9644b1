// A finding's block as a message of its own, for the exports: the block as the assistant wrote it,
// without the list marker (or quote marks) that placed it in the review, and its other lines
// dedented to match, so that a pull-request comment or a SARIF viewer shows it as a paragraph, not
// as a one-item list.

const LEADING_MARKS = /^\s*(?:>\s?)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?/;

export function findingMessage(markdown: string): string {
  const [first, ...rest] = markdown.replace(/\r\n?/g, '\n').split('\n');
  const marks = LEADING_MARKS.exec(first)![0];
  // The item's content starts after its marker: its other lines are indented that far, and no
  // further, or an indented code block in it would lose its indent.
  const indents = rest.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length);
  const common = indents.reduce((least, indent) => Math.min(least, indent), marks.length);
  return [first.slice(marks.length), ...rest.map((line) => line.slice(Math.min(common, /^ */.exec(line)![0].length)))]
    .join('\n')
    .trimEnd();
}
