package main

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestDocNamesEveryCommand: the package doc's usage lines and the usage
// text name every command featmap has (commands), so that a new command
// is not missing from either.
func TestDocNamesEveryCommand(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("main.go has no package doc")
	}
	doc := f.Doc.Text()
	for name := range commands {
		if !strings.Contains(doc, "featmap "+name+" ") && !strings.Contains(doc, "featmap "+name+"\n") {
			t.Errorf("the package doc does not name featmap %s", name)
		}
		if !strings.Contains(usage, "featmap "+name) {
			t.Errorf("the usage does not name featmap %s", name)
		}
	}
}
