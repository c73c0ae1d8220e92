// Package peers holds tests of runledger against real, independent
// implementations of the services it talks to. It is a module of its own so
// that their dependencies stay out of runledger's go.mod.
package peers
