/**
 * Per-language test programs: hello world, stdin echo (reads one line, prints it back), a compile error
 * (a syntax error for interpreted languages, which surfaces as a runtime error) and a runtime error.
 */
export interface LanguagePrograms {
  readonly hello: string;
  readonly echo: string;
  readonly syntaxError: string;
  readonly runtimeError: string;
}

export const PROGRAMS: Readonly<Record<string, LanguagePrograms>> = {
  python: {
    hello: 'print("hello, world")\n',
    echo: 'import sys\nprint(sys.stdin.readline().strip())\n',
    syntaxError: 'def f(:\n',
    runtimeError: 'raise ValueError("boom")\n',
  },
  javascript: {
    hello: 'console.log("hello, world");\n',
    echo: 'const s = require("fs").readFileSync(0, "utf8"); console.log(s.split("\\n")[0]);\n',
    syntaxError: 'function ( {\n',
    runtimeError: 'throw new Error("boom");\n',
  },
  typescript: {
    hello: 'const greeting: string = "hello, world";\nconsole.log(greeting);\n',
    echo: 'declare const require: any;\nconst s: string = require("fs").readFileSync(0, "utf8");\nconsole.log(s.split("\\n")[0]);\n',
    syntaxError: 'let x: number = ;\n',
    runtimeError: 'const o: any = null;\nconsole.log(o.field);\n',
  },
  c: {
    hello: '#include <stdio.h>\nint main(void) { puts("hello, world"); return 0; }\n',
    echo: '#include <stdio.h>\nint main(void) { char b[256]; if (fgets(b, sizeof b, stdin)) fputs(b, stdout); return 0; }\n',
    syntaxError: 'int main(void) { return 0 }\n',
    runtimeError: '#include <stdlib.h>\nint main(void) { abort(); }\n',
  },
  cpp: {
    hello: '#include <iostream>\nint main() { std::cout << "hello, world" << std::endl; }\n',
    echo: '#include <iostream>\n#include <string>\nint main() { std::string s; std::getline(std::cin, s); std::cout << s << "\\n"; }\n',
    syntaxError: 'int main() { return 0 }\n',
    runtimeError: '#include <stdexcept>\nint main() { throw std::runtime_error("boom"); }\n',
  },
  java: {
    hello: 'public class Main { public static void main(String[] a) { System.out.println("hello, world"); } }\n',
    echo: 'import java.util.Scanner;\npublic class Main { public static void main(String[] a) { System.out.println(new Scanner(System.in).nextLine()); } }\n',
    syntaxError: 'public class Main { public static void main(String[] a) { int x = } }\n',
    runtimeError: 'public class Main { public static void main(String[] a) { throw new RuntimeException("boom"); } }\n',
  },
  rust: {
    hello: 'fn main() { println!("hello, world"); }\n',
    echo: 'use std::io::BufRead;\nfn main() { let mut s = String::new(); std::io::stdin().lock().read_line(&mut s).unwrap(); println!("{}", s.trim_end()); }\n',
    syntaxError: 'fn main() { let x = ; }\n',
    runtimeError: 'fn main() { let v: Vec<i32> = Vec::new(); let i = v.len() + 3; println!("{}", v[i]); }\n',
  },
  go: {
    hello: 'package main\nimport "fmt"\nfunc main() { fmt.Println("hello, world") }\n',
    echo: 'package main\nimport ("bufio"; "fmt"; "os"; "strings")\nfunc main() { r := bufio.NewReader(os.Stdin); s, _ := r.ReadString(\'\\n\'); fmt.Println(strings.TrimRight(s, "\\n")) }\n',
    syntaxError: 'package main\nfunc main() { x := }\n',
    runtimeError: 'package main\nfunc main() { var m map[string]int; m["a"] = 1 }\n',
  },
  bash: {
    hello: 'echo "hello, world"\n',
    echo: 'read -r line\necho "$line"\n',
    syntaxError: 'if then fi\n',
    runtimeError: 'set -e\nfalse\n',
  },
  ruby: {
    hello: 'puts "hello, world"\n',
    echo: 'puts $stdin.gets.chomp\n',
    syntaxError: 'def f(\n',
    runtimeError: 'raise "boom"\n',
  },
  lua: {
    hello: 'print("hello, world")\n',
    echo: 'print(io.read("l"))\n',
    syntaxError: 'function (\n',
    runtimeError: 'error("boom")\n',
  },
  php: {
    hello: '<?php echo "hello, world\\n";\n',
    echo: '<?php echo rtrim(fgets(STDIN), "\\n"), "\\n";\n',
    syntaxError: '<?php function ( {\n',
    runtimeError: '<?php throw new Exception("boom");\n',
  },
  perl: {
    hello: 'print "hello, world\\n";\n',
    echo: 'my $l = <STDIN>; print $l;\n',
    syntaxError: 'sub {{ \n',
    runtimeError: 'die "boom\\n";\n',
  },
};
