package registry

import "github.com/featmap/featmap/design"

// Add appends a method to the list for a test and returns the function
// that restores the list.
func Add(m func() design.Method) (restore func()) {
	saved := methods
	methods = append(methods[:len(methods):len(methods)], m)
	return func() { methods = saved }
}
