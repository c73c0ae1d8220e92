module github.com/runledger/runledger

go 1.26.0

require (
	github.com/getkin/kin-openapi v0.153.0 // indirect
	github.com/google/go-github/v62 v62.0.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/joshdk/go-junit v1.0.0 // indirect
	github.com/sethvargo/go-githubactions v1.4.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
