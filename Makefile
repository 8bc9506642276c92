# Hangman Packs: `make test` and `make build` set up a fresh Debian machine and build.
# Debian packages the build needs (headers + pkg-config files) and the tools the benchmarks use.
DEB_PACKAGES := libpq-dev libarchive-dev nettle-dev libsqlite3-dev libmicrohttpd-dev libcurl4-openssl-dev pkg-config
# What the tests drive besides the build: the sqlite3 shell (to inspect the account's database)
# and script(1) for a real terminal (util-linux, always there); tmux for playing by hand;
# PostgreSQL's server (initdb, pg_ctl) for the ledger suites and the several-servers tests.
TEST_PACKAGES := sqlite3 tmux curl openssl postgresql
# What the benchmarks compare against: bsdtar and the sqlite3 shell.
BENCH_PACKAGES := libarchive-tools sqlite3 time postgresql
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SWIFT_BUILD_FLAGS ?=

.PHONY: all setup build debug test example play bench packs verify-packs clean help

all: build

help:
	@echo "make play    install what is missing, build, play a game (the base pack installs itself)"
	@echo "make test    install what is missing, build, run the test suite"
	@echo "make example build and test Examples/ContentAuthor, a content author's package that uses WordPacks"
	@echo "make build   install what is missing, release build of .build/release/hangman"
	@echo "make packs   rebuild every Packs/*.wordpack from its source folder, then record their digests in Catalog.plist"
	@echo "make setup   only install the Debian packages the build needs"

setup:
	@./.ci/install-deps $(DEB_PACKAGES)

build: setup
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

debug: setup
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

# The ledger suites run against SQLite and against a throwaway PostgreSQL server that
# Tests/with-postgres starts (as root, as the 'postgres' user) and stops when the tests end.
test: setup
	@./.ci/install-deps $(TEST_PACKAGES)
	$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)
	./Tests/with-postgres $(SWIFT) test --skip-build $(SWIFT_BUILD_FLAGS)

# A separate package (its own .build/ inside Examples/ContentAuthor) that depends on this one by path.
example: setup
	$(SWIFT) test --package-path Examples/ContentAuthor $(SWIFT_BUILD_FLAGS)

play: build
	.build/release/hangman play

packs: build
	./Packs/build-all .build/release/hangman

verify-packs: build
	.build/release/hangman pack verify Packs/*.wordpack

bench: build
	@./.ci/install-deps $(BENCH_PACKAGES)
	./Benchmarks/run

clean:
	$(SWIFT) package clean
