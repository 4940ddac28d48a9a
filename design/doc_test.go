package design

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestDocListsInterfaces: the package doc (doc.go) names every exported
// interface of the package, so that a new optional interface is listed
// where a method's author looks.
func TestDocListsInterfaces(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pkg := pkgs["design"]
	if pkg == nil {
		t.Fatal("no package design here")
	}
	var doc string
	var ifaces []string
	for name, f := range pkg.Files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if f.Doc != nil {
			doc += f.Doc.Text()
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if _, ok := ts.Type.(*ast.InterfaceType); ok && ts.Name.IsExported() {
					ifaces = append(ifaces, ts.Name.Name)
				}
			}
		}
	}
	if len(ifaces) < 2 {
		t.Fatalf("found interfaces %v: want Method and its optional ones", ifaces)
	}
	for _, name := range ifaces {
		if !strings.Contains(doc, name) {
			t.Errorf("the package doc does not name %s", name)
		}
	}
}
