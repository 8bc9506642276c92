#if canImport(Glibc)
import Glibc
#endif

exit(Hangman.main(Array(CommandLine.arguments.dropFirst()), console: Console()).rawValue)
