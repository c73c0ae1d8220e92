module github.com/runledger/runledger/internal/peers

go 1.26.0

replace github.com/runledger/runledger => ../..

require (
	github.com/julienschmidt/httprouter v1.3.0
	github.com/nektos/act v0.2.89
	github.com/runledger/runledger v0.0.0-00010101000000-000000000000
	go.yaml.in/yaml/v4 v4.0.0
)

require (
	github.com/getkin/kin-openapi v0.153.0 // indirect
	github.com/go-openapi/jsonpointer v0.22.5 // indirect
	github.com/go-openapi/swag/jsonname v0.25.5 // indirect
	github.com/golang-jwt/jwt/v5 v5.3.0 // indirect
	github.com/google/go-github/v62 v62.0.0 // indirect
	github.com/google/go-querystring v1.1.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/joshdk/go-junit v1.0.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/sethvargo/go-githubactions v1.4.0 // indirect
	github.com/sirupsen/logrus v1.9.3 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.36.0 // indirect
	google.golang.org/protobuf v1.36.9 // indirect
)
