module github.com/runledger/runledger

go 1.26
