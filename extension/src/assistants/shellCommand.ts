// A command line for the user to paste into a shell: each argument quoted so that the shell hands
// it to the program unchanged (paths with spaces, quotes, `$`, `%`), for POSIX shells, PowerShell
// and cmd.exe.

/** `posix`: sh, bash, zsh. `powershell`: Windows PowerShell and PowerShell 7. `cmd`: cmd.exe. */
export type ShellFlavor = 'posix' | 'powershell' | 'cmd';

export function shellCommand(argv: readonly string[], shell: ShellFlavor): string {
  const words = argv.map((arg) => shellQuote(arg, shell));
  // PowerShell reads a quoted first word as a string, not a command: `&` runs it.
  return shell === 'powershell' && words.length > 0 && words[0] !== argv[0] ? `& ${words.join(' ')}` : words.join(' ');
}

/** PowerShell takes the typographic single quotes for quotes too. */
const POWERSHELL_QUOTES = /['\u2018\u2019\u201a\u201b]/g;

/**
 * POSIX: single quotes, where nothing is special. PowerShell: single quotes too, where `$(…)`,
 * `$var` and backticks are text; a quote inside is doubled. cmd: double quotes, which keep
 * `& | < > ^` as text; a `%` is put outside them as `^%`, so that no `%NAME%` can expand.
 */
export function shellQuote(arg: string, shell: ShellFlavor): string {
  switch (shell) {
    case 'posix':
      return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
    case 'powershell':
      return /^[A-Za-z0-9_+=:./\\-]+$/.test(arg)
        ? arg
        : `'${arg.replace(POWERSHELL_QUOTES, (quote) => quote + quote)}'`;
    case 'cmd':
      return /^[A-Za-z0-9_+=:,./\\-]+$/.test(arg) ? arg : cmdQuote(arg);
  }
}

/**
 * For cmd.exe, then the C runtime that splits the program's command line: backslashes before a
 * quote are doubled (the runtime halves them), and a `%` goes outside the quotes as `^%`, where
 * `%"NAME"^%` is no variable cmd could expand. Windows file names cannot hold `"`; a value that
 * does gets the runtime's `\"`, which cmd itself still reads as a quote.
 */
function cmdQuote(arg: string): string {
  let quoted = '"';
  let backslashes = 0;
  for (const char of arg) {
    if (char === '\\') {
      backslashes++;
      quoted += char;
      continue;
    }
    if (char === '"') quoted += `${'\\'.repeat(backslashes)}\\"`;
    else if (char === '%') quoted += `${'\\'.repeat(backslashes)}"^%"`;
    else quoted += char;
    backslashes = 0;
  }
  return `${quoted}${'\\'.repeat(backslashes)}"`;
}
