# Sourced by the `prepare` step of languages/go.yaml and go-test.yaml (one archive, made once): the standard packages
# HumanEval-X's and SandboxFusion's Go programs import, the testing package and testify's assert, built once into the
# build cache every Go compile box starts from (same GOPATH, GO111MODULE and CGO_ENABLED as the compile steps).
# Writes the cache as a tar to $OUT.
export GOCACHE="$PWD/go-cache" GOPATH="/tmp/go:/usr/share/gocode" GO111MODULE=off CGO_ENABLED=0
cat > main.go <<'SRC'
package main

import (
    "bytes"
    "crypto/md5"
    "fmt"
    "math"
    "math/rand"
    "regexp"
    "sort"
    "strconv"
    "strings"
    "testing"
    "time"

    "github.com/stretchr/testify/assert"
)

func TestWarm(t *testing.T) { assert.Equal(t, 1, 1) }

func main() {
    fmt.Println(bytes.ToUpper([]byte("a")), md5.Sum(nil), math.Pi, rand.Intn(2), regexp.MustCompile("a"),
        sort.IntsAreSorted(nil), strconv.Itoa(1), strings.ToUpper("a"), time.Second)
    testing.Main(func(string, string) (bool, error) { return true, nil },
        []testing.InternalTest{{Name: "TestWarm", F: TestWarm}}, nil, nil)
}
SRC
/usr/bin/go build -o main main.go
./main > /dev/null
/usr/bin/tar -cf "$OUT" go-cache
