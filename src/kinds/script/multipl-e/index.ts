/**
 * Split judging per language (`../split.ts`): MultiPL-E's tests read as cases, a driver for the candidate's
 * box and a trusted expected-values program, one module per language. A language missing here is judged as one
 * script with the end-of-tests marker (`./one-program.ts`).
 */
import type { ValueSplit } from '../split.js';
import { ADA_SPLIT } from './ada.js';
import { BASH_SPLIT } from './bash.js';
import { CLOJURE_SPLIT } from './clojure.js';
import { CPP_SPLIT } from './cpp.js';
import { CSHARP_SPLIT } from './csharp.js';
import { D_SPLIT } from './d.js';
import { ELIXIR_SPLIT } from './elixir.js';
import { GO_SPLIT } from './go.js';
import { HASKELL_SPLIT } from './haskell.js';
import { JAVA_SPLIT } from './java.js';
import { JAVASCRIPT_SPLIT } from './javascript.js';
import { KOTLIN_SPLIT } from './kotlin.js';
import { LUA_SPLIT } from './lua.js';
import { OCAML_SPLIT } from './ocaml.js';
import { PASCAL_SPLIT } from './pascal.js';
import { PERL_SPLIT } from './perl.js';
import { PHP_SPLIT } from './php.js';
import { R_SPLIT } from './r.js';
import { RACKET_SPLIT } from './racket.js';
import { RUBY_SPLIT } from './ruby.js';
import { RUST_SPLIT } from './rust.js';
import { SCALA_SPLIT } from './scala.js';
import { SCHEME_SPLIT } from './scheme.js';
import { TCL_SPLIT } from './tcl.js';
import { TYPESCRIPT_SPLIT } from './typescript.js';

/** MultiPL-E's split judging by Crucible language id. */
export const MULTIPL_E_SPLITS: Readonly<Record<string, ValueSplit>> = {
  lua: LUA_SPLIT,
  pascal: PASCAL_SPLIT,
  tcl: TCL_SPLIT,
  javascript: JAVASCRIPT_SPLIT,
  typescript: TYPESCRIPT_SPLIT,
  ocaml: OCAML_SPLIT,
  haskell: HASKELL_SPLIT,
  ruby: RUBY_SPLIT,
  perl: PERL_SPLIT,
  php: PHP_SPLIT,
  bash: BASH_SPLIT,
  r: R_SPLIT,
  racket: RACKET_SPLIT,
  scheme: SCHEME_SPLIT,
  clojure: CLOJURE_SPLIT,
  elixir: ELIXIR_SPLIT,
  rust: RUST_SPLIT,
  cpp: CPP_SPLIT,
  go: GO_SPLIT,
  d: D_SPLIT,
  java: JAVA_SPLIT,
  csharp: CSHARP_SPLIT,
  scala: SCALA_SPLIT,
  kotlin: KOTLIN_SPLIT,
  ada: ADA_SPLIT,
};
