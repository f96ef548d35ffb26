# The two commands a newcomer needs (see README.md):
#   make run    set up, build in release mode, start the assistant
#   make test   set up, run the whole test suite
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

ARGS ?=

.PHONY: run test setup build

setup:
	@scripts/setup

build: setup
	swift build -c release

run: build
	.build/release/carevoice $(ARGS)

test: setup
	swift build --build-tests
	swift test --skip-build --disable-xctest
