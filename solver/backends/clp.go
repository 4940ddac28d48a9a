//go:build clp

package backends

import _ "github.com/featmap/featmap/solver/clp" // "clp"
