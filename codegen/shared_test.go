package codegen

import (
	"sync"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
)

// sharedGen holds the files GenerateFiles emitted for a test map case with
// testInfo(case name) and some tables, once per test binary, for the tests
// that read the same emitted files (the format fingerprint, the tables'
// choice, the modules TestEmittedAgree and TestRandomAllocFree build):
// they check those files, not that generating them again gives the same
// ones, which TestGenerateProperties holds by generating every map twice
// more itself.
var sharedGen struct {
	sync.Mutex
	files map[Info]*sharedEntry
}

// sharedEntry is one generation of sharedGen, made once.
type sharedEntry struct {
	once  sync.Once
	files []File
	err   error
}

// sharedFiles returns GenerateFiles(c.Map(), info) for info testInfo(c.Name)
// with tables tb, generated on the first call for that case and tables.
// The files are shared: a caller must not modify them.
func sharedFiles(t testing.TB, c testmaps.Case, tb Tables) []File {
	t.Helper()
	info := testInfo(c.Name)
	info.Tables = tb
	sharedGen.Lock()
	if sharedGen.files == nil {
		sharedGen.files = map[Info]*sharedEntry{}
	}
	e := sharedGen.files[info]
	if e == nil {
		e = &sharedEntry{}
		sharedGen.files[info] = e
	}
	sharedGen.Unlock()
	e.once.Do(func() { e.files, e.err = GenerateFiles(c.Map(), info) })
	if e.err != nil {
		t.Fatalf("%s %v: %v", c.Name, tb, e.err)
	}
	return e.files
}
