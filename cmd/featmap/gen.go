package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/codegen"
)

func init() { commands["gen"] = cmdGen }

// cmdGen designs the spec's map and writes it as Go source: to FILE with
// -o (atomically: a temporary file renamed over it, so a failing run leaves
// an existing FILE untouched), else to stdout.
func cmdGen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	out := fs.String("o", "", "write the Go file here (default: stdout)")
	mapOut := fs.String("map", "", "also write the designed map, with its measured errors, as JSON here (for tests of the emitted code)")
	pkg := fs.String("pkg", "", "package clause of the file (default: $GOPACKAGE under go generate, else the output directory's name)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: featmap gen [-o FILE] [-map FILE.json] [-pkg NAME] [-solver purego|clp] SPEC.yaml")
		fs.PrintDefaults()
	}
	spec, opts, code := parseCommand(fs, &c, args, stderr)
	if code != exitOK {
		return code
	}
	if spec.Target == nil {
		fmt.Fprintf(stderr, "featmap gen: %s is a comparison spec; gen needs a target and a method\n", spec.Path)
		return exitUsage
	}
	pkgName := packageName(*pkg, *out)
	d, err := spec.Design(opts)
	if err != nil {
		fmt.Fprintf(stderr, "featmap: %s: %v\n", spec.Path, err)
		return exitFailed
	}
	src, err := codegen.Generate(d.Map, codegen.Info{
		Name:     spec.Name,
		Package:  pkgName,
		Version:  featmap.Version,
		SpecPath: filepath.ToSlash(spec.Path),
		SpecHash: "sha256:" + spec.Hash,
		Spec:     strings.Join(spec.Describe(), "\n"),
	})
	if err != nil {
		fmt.Fprintf(stderr, "featmap: %s: %v\n", spec.Path, err)
		return exitFailed
	}
	if *mapOut != "" {
		js, err := json.MarshalIndent(d.Map, "", "  ")
		if err == nil {
			err = writeAtomic(*mapOut, append(js, '\n'))
		}
		if err != nil {
			fmt.Fprintln(stderr, "featmap:", err)
			return exitFailed
		}
	}
	if *out == "" {
		if _, err := stdout.Write(src); err != nil {
			fmt.Fprintln(stderr, "featmap:", err)
			return exitFailed
		}
		return exitOK
	}
	if err := writeAtomic(*out, src); err != nil {
		fmt.Fprintln(stderr, "featmap:", err)
		return exitFailed
	}
	return exitOK
}

// packageName picks the emitted file's package: the flag, else go
// generate's $GOPACKAGE, else the output directory's base name made into an
// identifier, else "featmap".
func packageName(flagValue, out string) string {
	if flagValue != "" {
		return flagValue
	}
	if p := os.Getenv("GOPACKAGE"); p != "" {
		return p
	}
	if out != "" {
		abs, err := filepath.Abs(filepath.Dir(out))
		if err == nil {
			var b strings.Builder
			for _, r := range strings.ToLower(filepath.Base(abs)) {
				if unicode.IsLetter(r) || unicode.IsDigit(r) && b.Len() > 0 {
					b.WriteRune(r)
				}
			}
			if b.Len() > 0 {
				return b.String()
			}
		}
	}
	return "featmap"
}

// writeAtomic writes data to a temporary file beside path and renames it
// over path, so that readers never see a half-written file and a failure
// leaves the old one untouched.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return werr
	}
	return nil
}
