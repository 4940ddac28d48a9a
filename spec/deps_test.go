package spec

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDesignStack: spec compiles none of the design stack. It reads
// specs against a method table it is given (UseMethods) and prices
// learning by design/learnplan's rules, and its settings name an LP backend
// rather than hold one, so its dependencies hold no method's package (chum,
// sampled, homogeneous, multidim, learn), no method table (registry) and no
// LP solver (solver, its backends).
func TestNoDesignStack(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const module = "github.com/featmap/featmap/"
	banned := []string{"chum", "sampled", "homogeneous", "multidim", "learn", "registry", "solver"}
	for _, dep := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(dep, module)
		if !ok {
			continue
		}
		for _, b := range banned {
			if rel == b || strings.HasPrefix(rel, b+"/") {
				t.Errorf("spec depends on %s", dep)
			}
		}
	}
}
