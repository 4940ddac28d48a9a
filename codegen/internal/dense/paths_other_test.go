//go:build !amd64

package dense

import "testing"

// eachPath runs f on the one path off amd64, the Go of dense.go.
func eachPath(t *testing.T, f func(t *testing.T)) { t.Run("go", f) }

// pathName names the path: Go.
func pathName() string { return "go" }

// setPath selects a path by name: only "go" exists here.
func setPath(name string) (ok bool, restore func()) { return name == "go", func() {} }
