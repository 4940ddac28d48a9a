package spec

import "github.com/featmap/featmap/registry"

// The tests read specs against featmap's methods, as package featmap
// gives them.
func init() { UseMethods(registry.Table{}) }
