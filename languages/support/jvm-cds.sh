# Sourced by the `prepare` scripts of the JVM languages (scala.yaml, kotlin.yaml, clojure.yaml, groovy.yaml), on the
# host, at set-up, in an empty temporary directory holding a trusted training program already compiled.
# Makes a static class-data sharing archive (JDK 17 AppCDS) of every class the training run loads from the JDK and
# from the language's runtime jars: runs then map those classes, parsed and verified, instead of loading them.
# A class-path prefix rule applies: the run's -cp must start with the same jars ($2), hence the archive names
# only the jars (a directory in it would make the dump fail) and the program's own classes are found after them.
# Usage: crucible_jvm_cds OUT JARS MAIN-CLASS-OR-ARGS...  (training input on stdin)
crucible_jvm_cds() {
  local out=$1 jars=$2
  shift 2
  /usr/bin/java -Xshare:off -XX:DumpLoadedClassList=classes.lst -cp "$jars:." "$@" > training.out
  /usr/bin/java -Xshare:dump -XX:SharedClassListFile=classes.lst -XX:SharedArchiveFile="$out.tmp" -cp "$jars" > dump.log 2>&1 \
    || { tail -n 20 dump.log >&2; return 1; }
  chmod 0644 "$out.tmp"
  mv "$out.tmp" "$out"
}

# The compilers' own start-up (kotlinc, scalac, javac: seconds of class loading and JIT per compile) gets the same
# treatment: a dynamic archive (JDK 17 -XX:ArchiveClassesAtExit) of what one compile of a small trusted program
# loads, which the compile scripts name with -Xshare:auto (a missing or stale archive is ignored, and -Xlog:disable
# keeps the JVM's note about it out of the compiler's output). The compile flags (C1 only, serial GC) must be those
# the language's compile uses, as an archive is refused by a JVM started with different GC settings.
# Usage: crucible_jvm_compiler_cds OUT COMPILER ARGS...  kotlinc and scalac take the options through JAVA_OPTS, set
# here; javac ignores JAVA_OPTS, so its ARGS carry them as -J flags, -J-XX:ArchiveClassesAtExit="$OUT.tmp" included.
crucible_jvm_compiler_cds() {
  local out=$1
  shift
  JAVA_OPTS="-Xmx256M -Xms32M -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ArchiveClassesAtExit=$out.tmp" "$@" > compile.log 2>&1 \
    || { tail -n 20 compile.log >&2; return 1; }
  chmod 0644 "$out.tmp"
  mv "$out.tmp" "$out"
}
