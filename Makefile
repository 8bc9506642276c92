# Hangman Packs: `make test` and `make build` set up a fresh Debian machine and build.
# Debian packages the build needs (headers + pkg-config files) and the tools the benchmarks use.
DEB_PACKAGES := libpq-dev libarchive-dev nettle-dev libsodium-dev libsqlite3-dev libmicrohttpd-dev libgnutls28-dev libcurl4-openssl-dev libicu-dev pkg-config
# What the tests drive besides the build: the sqlite3 shell (to inspect the account's database)
# and script(1) for a real terminal (util-linux, always there); tmux for playing by hand; zsh, fish,
# groff and man to check the generated completions and manual page; python3 for slow raw HTTP
# clients; PostgreSQL's server (initdb, pg_ctl) for the ledger suites and the several-servers tests;
# python3-venv for the receipt-validation client written for Apple's endpoint (from PyPI, pinned in
# Tests/AppleClient/requirements.txt, installed into .build/apple-client); nginx-light for the
# reverse proxy in front of two servers and the downloads server; chromium and chromium-driver for
# the seller's dashboard in a real browser (Tests/Browser/dashboard.py).
TEST_PACKAGES := sqlite3 tmux curl gettext openssl zsh fish groff-base man-db python3 python3-venv postgresql nginx-light chromium chromium-driver fonts-dejavu-core
# What the benchmarks compare against: bsdtar and the sqlite3 shell; bsdgames (its hangman's first
# screen); wrk (HTTP load with Lua),
# pgbench (with PostgreSQL) and nginx for the server's floors.
BENCH_PACKAGES := libarchive-tools sqlite3 time postgresql wrk nginx-light bsdgames
# What the shipped content is chosen from (Packs/tools/make-sources.py): SCOWL and Debian's word
# lists, WordNet for the clues, FreeDict's English dictionaries to find everyday words in German,
# French and Portuguese.
CONTENT_PACKAGES := python3 scowl wamerican wspanish wngerman wfrench wbrazilian wordnet-base dict-freedict-eng-deu dict-freedict-eng-fra dict-freedict-eng-por
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SWIFT_BUILD_FLAGS ?=
DOCC ?= $(shell command -v docc 2>/dev/null || echo $(dir $(SWIFT))docc)

PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share

.PHONY: all setup build debug test docs example play bench packs verify-packs install uninstall clean help

all: build

help:
	@echo "make play    install what is missing, build, play a game (the base pack installs itself)"
	@echo "make test    install what is missing, build, run the test suite"
	@echo "make example build and test Examples/ContentAuthor, a content author's package that uses WordPacks"
	@echo "make docs    the libraries' documentation (DocC: WordPacks, HangmanGame, PackServiceAPI) in .build/docs/; a broken link fails it"
	@echo "make build   install what is missing, release build of .build/release/hangman"
	@echo "make packs   write the pack sources from Debian's word lists, rebuild every Packs/*.wordpack, then record their digests in Catalog.plist"
	@echo "make setup   only install the Debian packages the build needs"
	@echo "make install PREFIX=/usr/local (and DESTDIR=): the binary, the packs, the man page, bash/zsh/fish completions"

setup:
	@./.ci/install-deps $(DEB_PACKAGES)

# The release binary carries the Swift runtime and Foundation (--static-swift-stdlib), built in a
# folder of its own (.build/static: a plain 'swift build -c release' beside it links as it always
# does) and copied to .build/release: every
# command starts some 7 ms sooner than with them loaded as shared libraries (Benchmarks/NOTES.md),
# and the binary runs where no Swift toolchain is installed.
build: setup
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build/static $(SWIFT_BUILD_FLAGS)
	mkdir -p .build/release
	cp .build/static/release/hangman .build/static/release/hint-debit-bench .build/release/

debug: setup
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

# The ledger suites run against SQLite and against a throwaway PostgreSQL server that
# Tests/with-postgres starts (as root, as the 'postgres' user) and stops when the tests end.
test: setup
	@./.ci/install-deps $(TEST_PACKAGES)
	./Tests/AppleClient/setup
	$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)
	./Tests/with-postgres $(SWIFT) test --skip-build $(SWIFT_BUILD_FLAGS)

# The libraries others use (WordPacks for content authors, HangmanGame's rules, the boundary PackServiceAPI) as static DocC
# sites, with no plugin and no network: each module's symbol graph alone, then docc with its
# catalog; a broken ``Symbol`` link fails it.
DOC_MODULES := Formats/WordPacks Game/HangmanGame Service/PackServiceAPI
docs: setup
	$(SWIFT) package dump-symbol-graph --minimum-access-level public --skip-synthesized-members $(SWIFT_BUILD_FLAGS) >/dev/null
	rm -rf .build/docs
	for path in $(DOC_MODULES); do \
		module=$$(basename $$path); \
		mkdir -p .build/docs/symbolgraph/$$module && cp .build/*/symbolgraph/$$module.symbols.json .build/docs/symbolgraph/$$module/ && \
		$(DOCC) convert Sources/$$path/$$module.docc --additional-symbol-graph-dir .build/docs/symbolgraph/$$module \
			--output-dir .build/docs/$$module.doccarchive --transform-for-static-hosting --warnings-as-errors \
			--experimental-documentation-coverage --coverage-summary-level brief || exit 1; \
	done

# A separate package (its own .build/ inside Examples/ContentAuthor) that depends on this one by path.
example: setup
	$(SWIFT) test --package-path Examples/ContentAuthor $(SWIFT_BUILD_FLAGS)

play: build
	@.build/release/hangman play; status=$$?; \
	echo; \
	echo "Next time: .build/release/hangman play (here), or 'make install PREFIX=~/.local' (no root needed) and then"; \
	echo "~/.local/bin/hangman: put ~/.local/bin before /usr/games on your PATH, where bsdgames has a hangman of its own."; \
	echo "'hangman --help' lists every command; 'man hangman-packs' after make install."; \
	exit $$status

packs: build
	@./.ci/install-deps $(CONTENT_PACKAGES)
	python3 Packs/tools/make-sources.py
	./Packs/build-all .build/release/hangman

verify-packs: build
	.build/release/hangman pack verify Packs/*.wordpack

bench: build
	@./.ci/install-deps $(BENCH_PACKAGES)
	./Benchmarks/run

# The man page and the completions are generated by the binary from its command list. The man
# page is hangman-packs(1): bsdgames' hangman(6) keeps its own name.
install: build
	install -d $(BINDIR) $(DATADIR)/hangman/Packs $(DATADIR)/hangman/Localization $(DATADIR)/man/man1 $(DATADIR)/bash-completion/completions \
		$(DATADIR)/zsh/site-functions $(DATADIR)/fish/vendor_completions.d
	install -m 755 .build/release/hangman $(BINDIR)/hangman
	install -m 644 Packs/Catalog.plist Packs/*.wordpack $(DATADIR)/hangman/Packs/
	install -m 644 Localization/*.po $(DATADIR)/hangman/Localization/
	.build/release/hangman man > $(DATADIR)/man/man1/hangman-packs.1
	.build/release/hangman completion bash > $(DATADIR)/bash-completion/completions/hangman
	.build/release/hangman completion zsh > $(DATADIR)/zsh/site-functions/_hangman
	.build/release/hangman completion fish > $(DATADIR)/fish/vendor_completions.d/hangman.fish

uninstall:
	rm -f $(BINDIR)/hangman $(DATADIR)/man/man1/hangman-packs.1 $(DATADIR)/bash-completion/completions/hangman \
		$(DATADIR)/zsh/site-functions/_hangman $(DATADIR)/fish/vendor_completions.d/hangman.fish
	rm -rf $(DATADIR)/hangman/Packs $(DATADIR)/hangman/Localization

clean:
	$(SWIFT) package clean
