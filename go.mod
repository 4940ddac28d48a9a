module github.com/featmap/featmap

go 1.24.0

require (
	github.com/dave/jennifer v1.7.1
	gonum.org/v1/gonum v0.17.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/tools v0.36.0 // indirect
