import CareLanguage
import CareModel
import Foundation
import Testing
@testable import CareAssistant

private let anna = EmergencyContact(id: 4, name: "Anna Li", phone: "604 555 0199", relation: "daughter")
private let ben = EmergencyContact(id: 9, name: "Ben", phone: "+44 20 7946 0000")

private func contactScript(_ contacts: [EmergencyContact] = []) -> Script {
    Script(Dialog(phrasebook: Phrasebook(table: english, calendar: calendar), preferredUnit: .mmolPerL,
                  contacts: contacts))
}

extension Script {
    var added: EmergencyContact? {
        for case .addContact(let contact) in effects { return contact }
        return nil
    }
    var removed: EmergencyContact? {
        for case .removeContact(let contact) in effects { return contact }
        return nil
    }
    var showedEmergency: Bool { effects.contains(.showEmergency) }
}

/// "Add a contact", "read my contacts", "remove contact two": asked one thing at a time, read
/// back, and nothing stored before the yes.
@Suite struct ContactDialogTests {
    @Test func addingByVoiceAsksNameNumberAndRelationThenReadsBack() throws {
        var s = contactScript([ben])
        s.send(.heard("add a contact"))
        #expect(s.said == ["Who should I add? Type their name and press Enter, or say cancel."])
        #expect(s.listening == .question(.contactName))

        // A name can't be heard (the grammar has none): it has to be typed.
        s.send(.heard("yes"))
        #expect(s.said == ["Please type the name and press Enter: I can't take names by ear."])
        s.send(.typed("Anna Li"))
        #expect(s.said == ["What is Anna Li's phone number? Say it digit by digit, or type it."])
        #expect(s.listening == .question(.contactPhone))

        s.send(.heard("six oh four five five five oh one nine nine"))
        #expect(s.said == ["Who is Anna Li to you? For example daughter, neighbour or doctor. Or say skip."])
        #expect(s.listening == .contactRelation)

        s.send(.heard("daughter"))
        #expect(s.said == ["Add this emergency contact? Anna Li (daughter): 6045550199. Say yes or no."])
        #expect(s.spoken.first?.contains("six, zero, four, five, five, five, zero, one, nine, nine") == true)
        #expect(s.editable == "Anna Li, 6045550199, daughter")
        #expect(s.listening == .confirmation)
        #expect(s.added == nil)

        s.send(.heard("yes"))
        #expect(s.added == EmergencyContact(name: "Anna Li", phone: "6045550199", relation: "daughter"))
        // The runtime stores it and answers with the contacts as they are now.
        let stored = EmergencyContact(id: 10, name: "Anna Li", phone: "6045550199", relation: "daughter")
        s.send(.contactsSaved([ben, stored]))
        #expect(s.said.first == "Added to your emergency contacts: 2. Anna Li (daughter): 6045550199.")
        #expect(s.dialog.contacts == [ben, stored])
        #expect(s.dialog.state == .idle)
        #expect(s.listening == .reading)
    }

    @Test func typedAnswersKeepTheNumberAsTypedAndSkipTheRelation() {
        var s = contactScript()
        s.send(.typed("add contact"))
        s.send(.typed("Dr Chan"))
        s.send(.typed("(604) 555-0100"))
        s.send(.typed("skip"))
        #expect(s.said == ["Add this emergency contact? Dr Chan: (604) 555-0100. Say yes or no."])
        // Enter on the line as shown is the yes.
        s.send(.edited("Dr Chan, (604) 555-0100"))
        #expect(s.added == EmergencyContact(name: "Dr Chan", phone: "(604) 555-0100"))
    }

    @Test func anEditedLineIsParsedAgainAndIsItselfTheYes() {
        var s = contactScript()
        for line in ["add a contact", "Anna", "604 555 0199", "friend"] { s.send(.typed(line)) }
        s.send(.edited("Anna Li, 604 555 0198, daughter"))
        #expect(s.added == EmergencyContact(name: "Anna Li", phone: "604 555 0198", relation: "daughter"))

        // A line that is not a contact is explained, kept for correcting, and nothing is added.
        var t = contactScript()
        for line in ["add a contact", "Anna", "604 555 0199", "friend"] { t.send(.typed(line)) }
        t.send(.edited("Anna, 12"))
        #expect(t.said == ["12 doesn't look like a phone number: it has fewer than 5 digits."])
        #expect(t.editable == "Anna, 12")
        #expect(t.added == nil)
        t.send(.edited("Anna and her phone, daughter"))
        #expect(t.said.first?.contains("doesn't look like a phone number") == true)
        t.send(.edited("Anna Li"))
        #expect(t.said.first?.hasPrefix("Please write the line as: name, phone number, who they are.") == true)
        // Another request typed meanwhile is no answer: the contact waits as it was read back.
        var u = contactScript()
        for line in ["add a contact", "Anna", "604 555 0199", "friend"] { u.send(.typed(line)) }
        u.send(.typed("read my contacts"))
        #expect(u.said == ["Please say yes to add it, or no."])
        #expect(u.editable == "Anna, 604 555 0199, friend")
        // Emptied: cancelled.
        t.send(.edited(""))
        #expect(t.said.first == "Your emergency contacts are unchanged.")
        #expect(t.dialog.state == .idle)
    }

    @Test func aNumberThatIsNoPhoneNumberIsAskedAgain() {
        var s = contactScript()
        s.send(.typed("add a contact"))
        s.send(.typed("Anna"))
        s.send(.heard("one two"))
        #expect(s.said == ["That doesn't sound like a phone number: it has fewer than 5 digits. Please say it again."])
        #expect(s.listening == .question(.contactPhone))
        // A number is needed: skip asks again rather than adding a contact nobody can call.
        s.send(.heard("skip"))
        #expect(s.said == ["What is Anna's phone number? Say it digit by digit, or type it."])
    }

    @Test func backGoesOneQuestionBackAndCancelLeavesEverything() {
        var s = contactScript()
        s.send(.typed("add a contact"))
        s.send(.typed("Anna"))
        s.send(.heard("six oh four five five five oh one nine nine"))
        s.send(.heard("back"))
        #expect(s.said == ["What is Anna's phone number? Say it digit by digit, or type it."])
        s.send(.heard("back"))
        #expect(s.said == ["Who should I add? Type their name and press Enter, or say cancel."])
        s.send(.heard("cancel"))
        #expect(s.said.first == "Your emergency contacts are unchanged.")
        #expect(s.dialog.state == .idle)
        #expect(s.added == nil)
    }

    /// Every step of adding and removing, by every emergency phrase, typed and heard: help
    /// first, and the step is still there afterwards.
    static let steps: [[String]] = [
        ["add a contact"], ["add a contact", "Anna"], ["add a contact", "Anna", "604 555 0199"],
        ["add a contact", "Anna", "604 555 0199", "daughter"], ["remove contact one"],
    ]

    @Test(arguments: english.emergency, steps)
    func helpInterruptsEveryStepAndTheStepGoesOn(_ phrase: String, _ step: [String]) {
        for input in [DialogEvent.heard(phrase), .typed(phrase)] {
            var s = contactScript([anna])
            for line in step { s.send(.typed(line)) }
            let before = s.dialog.state
            s.send(input)
            #expect(s.effects.first == .showEmergency, "\(step) \(input)")
            #expect(s.dialog.state == before)
            #expect(s.added == nil && s.removed == nil)
        }
    }

    @Test func listingReadsTheContactsNumberedFromOne() {
        var s = contactScript([anna, ben])
        s.send(.heard("read my contacts"))
        #expect(s.said == ["Your emergency contacts:", "1. Anna Li (daughter): 604 555 0199.",
                           "2. Ben: +44 20 7946 0000.", "To remove one, say remove contact number, and its number.",
                           "Tell me your next reading, or say goodbye."])
        var none = contactScript()
        none.send(.typed("list my contacts"))
        #expect(none.said.first == "You have no emergency contacts yet. Say add a contact to add one.")
    }

    @Test func removingReadsBackAndRemovesOnlyOnYes() {
        var s = contactScript([anna, ben])
        s.send(.heard("remove contact number two"))
        #expect(s.said == ["Remove this emergency contact? 2. Ben: +44 20 7946 0000. Say yes or no."])
        #expect(s.listening == .confirmation)
        s.send(.heard("no"))
        #expect(s.removed == nil)
        #expect(s.said.first == "Your emergency contacts are unchanged.")

        s.send(.typed("delete contact 1"))
        s.send(.typed("yes"))
        #expect(s.removed == anna)
        s.send(.contactsSaved([ben]))
        #expect(s.said.first == "Removed from your emergency contacts: 1. Anna Li (daughter): 604 555 0199.")
        #expect(s.dialog.contacts == [ben])

        s.send(.heard("remove contact number three"))
        #expect(s.said == ["There is no emergency contact number 3. Say read my contacts to hear the list."])
        #expect(s.dialog.state == .idle)
    }

    @Test func theInputEndingMidwaySavesNothingAndSaysSo() {
        var s = contactScript()
        s.send(.typed("add a contact"))
        s.send(.typed("Anna"))
        s.send(.endOfInput)
        #expect(s.said == ["Your emergency contacts are unchanged."])
        #expect(s.added == nil)
    }

    @Test func contactRequestsAreParsedFromTheLocaleWords() {
        let parser = UtteranceParser(table: english)
        #expect(parser.parse("add a contact") == .contacts(.add))
        #expect(parser.parse("Read out my contacts") == .contacts(.list))
        #expect(parser.parse("add an emergency contact") == .emergency)
        #expect(parser.parse("remove contact two") == .contacts(.remove(number: 2)))
        #expect(parser.parse("delete contact number 12") == .contacts(.remove(number: 12)))
        #expect(parser.parse("remove contact") == .unknown)
        #expect(parser.parse("remove contact zero") == .unknown)
        #expect(parser.parse("remove contact two please") == .unknown)
        let answers = ProfileAnswerParser(table: english)
        #expect(answers.relation("my daughter") == "daughter")
        #expect(answers.relation("My Neighbour") == "neighbour")
        #expect(answers.relation("my late husband's brother") == "my late husband's brother")
        #expect(answers.relation("skip") == nil)
    }
}
