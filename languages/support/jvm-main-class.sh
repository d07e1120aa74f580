# Sourced by the compile steps of the JVM languages (languages/java.yaml, scala.yaml, kotlin.yaml), in the compile
# box, after the compiler wrote its class files to the work directory. Writes main.args: the binary name of the class
# to run, for the run's `java ... @/artifact/main.args` (a java launcher argument file, JDK 9+).
# Which class: among top-level classes (class files without '$', packages as dots) that declare
# `static void main(String[])`, the first of: the preferred names given as arguments (the public class, Main),
# then the others in name order. A class declares main when its constant pool holds both the name "main" and
# the descriptor ([Ljava/lang/String;)V. None found: the first preferred name (the run then says why).
crucible_main_class() {
  local preferred=("$@") candidates=() name file
  mapfile -t candidates < <(find . -name '*.class' ! -name '*$*' -printf '%P\n' | sed -e 's/\.class$//' -e 's#/#.#g' | LC_ALL=C sort)
  for name in "${preferred[@]}" "${candidates[@]}"; do
    file="${name//.//}.class"
    if [ -f "$file" ] && grep -qa 'main' "$file" && grep -qaF '([Ljava/lang/String;)V' "$file"; then
      printf '%s\n' "$name" > main.args
      return 0
    fi
  done
  printf '%s\n' "${preferred[0]}" > main.args
}
