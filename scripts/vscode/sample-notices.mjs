// The demo notices of the `npm start` workspace, written beside (and over) the copied test fixtures so
// that what a user opens first means what its name says under the official eForms SDK rules:
//   valid-cn.xml               a contract notice with no error (parks maintenance);
//   school-catering-cn.xml     a contract notice for school catering (CPV 15113000 Pork, which maps to
//                              the agri-food pigmeat prices), also without error;
//   INVALID_cn_no-deadline.xml and INVALID_cn_missing-buyer-contact.xml: each with one kind of mistake.
// Dates are relative to the day the generator runs (published today, deadlines weeks ahead), so that
// the dynamic rules hold too. test/scripts/demo-notices.test.ts checks every one against the official
// rules (../shared/eforms-sdk/1.15.1). Generated, never stored; it never reads shared data and never
// writes into the repository.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** CPV 15113000 (Pork): core/agrifood/cpv.ts maps it to the EU pigmeat price series. */
export const FOOD_CPV = '15113000';
export const FOOD_NOTICE_FILE = 'school-catering-cn.xml';
export const VALID_NOTICE_FILE = 'valid-cn.xml';
export const INVALID_NO_DEADLINE_FILE = 'INVALID_cn_no-deadline.xml';
export const INVALID_NO_CONTACT_FILE = 'INVALID_cn_missing-buyer-contact.xml';

const day = 24 * 3600 * 1000;
/** `2026-03-05+01:00`, the form eForms dates take. */
const date = (t) => `${new Date(t).toISOString().slice(0, 10)}+01:00`;

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * A contract notice (subtype 16, open procedure, one lot) with everything the SDK 1.15 rules ask of
 * it; `o` gives what differs between the demo notices.
 */
function contractNotice(o) {
  const issued = o.today;
  const deadline = issued + 40 * day;
  const contact =
    o.buyerContact === false
      ? ''
      : `
                <cac:Contact>
                  <cbc:Telephone>+32 2 555 01 00</cbc:Telephone>
                  <cbc:ElectronicMail>procurement@springfield.example</cbc:ElectronicMail>
                </cac:Contact>`;
  const deadlinePeriod =
    o.deadline === false
      ? ''
      : `
      <cac:TenderSubmissionDeadlinePeriod>
        <cbc:EndDate>${date(deadline)}</cbc:EndDate>
        <cbc:EndTime>12:00:00+01:00</cbc:EndTime>
      </cac:TenderSubmissionDeadlinePeriod>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- ${esc(o.comment)} -->
<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" xmlns:efac="http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1" xmlns:efext="http://data.europa.eu/p27/eforms-ubl-extensions/1" xmlns:efbc="http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1">
  <ext:UBLExtensions>
    <ext:UBLExtension>
      <ext:ExtensionContent>
        <efext:EformsExtension>
          <efac:NoticeSubType>
            <cbc:SubTypeCode listName="notice-subtype">16</cbc:SubTypeCode>
          </efac:NoticeSubType>
          <efac:Organizations>
            <efac:Organization>
              <efac:Company>
                <cac:PartyIdentification>
                  <cbc:ID schemeName="organization">ORG-0001</cbc:ID>
                </cac:PartyIdentification>
                <cac:PartyName>
                  <cbc:Name languageID="ENG">City of Springfield &amp; District</cbc:Name>
                </cac:PartyName>
                <cac:PostalAddress>
                  <cbc:CityName>Springfield</cbc:CityName>
                  <cbc:PostalZone>1000</cbc:PostalZone>
                  <cbc:CountrySubentityCode listName="nuts">BE100</cbc:CountrySubentityCode>
                  <cac:Country>
                    <cbc:IdentificationCode listName="country">BEL</cbc:IdentificationCode>
                  </cac:Country>
                </cac:PostalAddress>
                <cac:PartyLegalEntity>
                  <cbc:CompanyID>BE0123456789</cbc:CompanyID>
                </cac:PartyLegalEntity>${contact}
              </efac:Company>
            </efac:Organization>
            <efac:Organization>
              <efac:Company>
                <cac:PartyIdentification>
                  <cbc:ID schemeName="organization">ORG-0002</cbc:ID>
                </cac:PartyIdentification>
                <cac:PartyName>
                  <cbc:Name languageID="ENG">Review Board of Springfield</cbc:Name>
                </cac:PartyName>
                <cac:PostalAddress>
                  <cbc:CityName>Brussels</cbc:CityName>
                  <cbc:PostalZone>1000</cbc:PostalZone>
                  <cbc:CountrySubentityCode listName="nuts">BE100</cbc:CountrySubentityCode>
                  <cac:Country>
                    <cbc:IdentificationCode listName="country">BEL</cbc:IdentificationCode>
                  </cac:Country>
                </cac:PostalAddress>
                <cac:PartyLegalEntity>
                  <cbc:CompanyID>BE0987654321</cbc:CompanyID>
                </cac:PartyLegalEntity>
              </efac:Company>
            </efac:Organization>
          </efac:Organizations>
        </efext:EformsExtension>
      </ext:ExtensionContent>
    </ext:UBLExtension>
  </ext:UBLExtensions>
  <cbc:UBLVersionID>2.3</cbc:UBLVersionID>
  <cbc:CustomizationID>eforms-sdk-1.15</cbc:CustomizationID>
  <cbc:ID schemeName="notice-id">${o.noticeId}</cbc:ID>
  <cbc:ContractFolderID>${o.procedureId}</cbc:ContractFolderID>
  <cbc:IssueDate>${date(issued)}</cbc:IssueDate>
  <cbc:IssueTime>09:30:00+01:00</cbc:IssueTime>
  <cbc:VersionID>01</cbc:VersionID>
  <cbc:RegulatoryDomain>32014L0024</cbc:RegulatoryDomain>
  <cbc:NoticeTypeCode listName="competition">cn-standard</cbc:NoticeTypeCode>
  <cbc:NoticeLanguageCode>ENG</cbc:NoticeLanguageCode>
  <cac:ContractingParty>
    <cac:ContractingPartyType>
      <cbc:PartyTypeCode listName="buyer-legal-type">la</cbc:PartyTypeCode>
    </cac:ContractingPartyType>
    <cac:ContractingActivity>
      <cbc:ActivityTypeCode listName="authority-activity">${o.activity}</cbc:ActivityTypeCode>
    </cac:ContractingActivity>
    <cac:Party>
      <cac:PartyIdentification>
        <cbc:ID schemeName="organization">ORG-0001</cbc:ID>
      </cac:PartyIdentification>
    </cac:Party>
  </cac:ContractingParty>
  <cac:TenderingTerms>
    <cac:TendererQualificationRequest>
      <cac:SpecificTendererRequirement>
        <cbc:TendererRequirementTypeCode listName="exclusion-grounds-source">epo-procurement-document</cbc:TendererRequirementTypeCode>
      </cac:SpecificTendererRequirement>
    </cac:TendererQualificationRequest>
  </cac:TenderingTerms>
  <cac:TenderingProcess>
    <cbc:ProcedureCode listName="procurement-procedure-type">open</cbc:ProcedureCode>
    <cac:ProcessJustification>
      <cbc:ProcessReasonCode listName="accelerated-procedure">false</cbc:ProcessReasonCode>
    </cac:ProcessJustification>
  </cac:TenderingProcess>
  <cac:ProcurementProject>
    <cbc:Name languageID="ENG">${esc(o.title)}</cbc:Name>
    <cbc:Description languageID="ENG">${esc(o.description)}</cbc:Description>
    <cbc:ProcurementTypeCode listName="contract-nature">${o.nature}</cbc:ProcurementTypeCode>
    <cac:MainCommodityClassification>
      <cbc:ItemClassificationCode listName="cpv">${o.cpv}</cbc:ItemClassificationCode>
    </cac:MainCommodityClassification>
    <cac:RealizedLocation>
      <cac:Address>
        <cbc:CountrySubentityCode listName="nuts">BE100</cbc:CountrySubentityCode>
        <cac:Country>
          <cbc:IdentificationCode listName="country">BEL</cbc:IdentificationCode>
        </cac:Country>
      </cac:Address>
    </cac:RealizedLocation>
  </cac:ProcurementProject>
  <cac:ProcurementProjectLot>
    <cbc:ID schemeName="Lot">LOT-0001</cbc:ID>
    <cac:TenderingTerms>
      <cbc:VariantConstraintCode listName="permission">not-allowed</cbc:VariantConstraintCode>
      <cbc:FundingProgramCode listName="eu-funded">no-eu-funds</cbc:FundingProgramCode>
      <cac:CallForTendersDocumentReference>
        <cbc:ID>${o.reference}</cbc:ID>
        <cbc:DocumentType>non-restricted-document</cbc:DocumentType>
        <cac:Attachment>
          <cac:ExternalReference>
            <cbc:URI>https://tenders.springfield.example/${o.reference}</cbc:URI>
          </cac:ExternalReference>
        </cac:Attachment>
      </cac:CallForTendersDocumentReference>
      <cac:TendererQualificationRequest>
        <cac:SpecificTendererRequirement>
          <cbc:TendererRequirementTypeCode listName="reserved-procurement">none</cbc:TendererRequirementTypeCode>
        </cac:SpecificTendererRequirement>
      </cac:TendererQualificationRequest>
      <cac:TendererQualificationRequest>
        <cac:SpecificTendererRequirement>
          <cbc:TendererRequirementTypeCode listName="selection-criteria-source">epo-procurement-document</cbc:TendererRequirementTypeCode>
        </cac:SpecificTendererRequirement>
      </cac:TendererQualificationRequest>
      <cac:ContractExecutionRequirement>
        <cbc:ExecutionRequirementCode listName="reserved-execution">no</cbc:ExecutionRequirementCode>
      </cac:ContractExecutionRequirement>
      <cac:ContractExecutionRequirement>
        <cbc:ExecutionRequirementCode listName="einvoicing">allowed</cbc:ExecutionRequirementCode>
      </cac:ContractExecutionRequirement>
      <cac:ContractExecutionRequirement>
        <cbc:ExecutionRequirementCode listName="ecatalog-submission">not-allowed</cbc:ExecutionRequirementCode>
      </cac:ContractExecutionRequirement>
      <cac:TenderRecipientParty>
        <cbc:EndpointID>https://tenders.springfield.example/${o.reference}/submit</cbc:EndpointID>
        <cac:PartyIdentification>
          <cbc:ID schemeName="organization">ORG-0001</cbc:ID>
        </cac:PartyIdentification>
      </cac:TenderRecipientParty>
      <cac:TenderValidityPeriod>
        <cbc:DurationMeasure unitCode="MONTH">4</cbc:DurationMeasure>
      </cac:TenderValidityPeriod>
      <cac:AppealTerms>
        <cac:PresentationPeriod>
          <cbc:Description languageID="ENG">Within 15 days of the notification of the award decision.</cbc:Description>
        </cac:PresentationPeriod>
        <cac:AppealInformationParty>
          <cac:PartyIdentification>
            <cbc:ID schemeName="organization">ORG-0002</cbc:ID>
          </cac:PartyIdentification>
        </cac:AppealInformationParty>
        <cac:AppealReceiverParty>
          <cac:PartyIdentification>
            <cbc:ID schemeName="organization">ORG-0002</cbc:ID>
          </cac:PartyIdentification>
        </cac:AppealReceiverParty>
      </cac:AppealTerms>
      <cac:Language>
        <cbc:ID>ENG</cbc:ID>
      </cac:Language>
      <cac:PostAwardProcess>
        <cbc:ElectronicOrderUsageIndicator>false</cbc:ElectronicOrderUsageIndicator>
        <cbc:ElectronicPaymentUsageIndicator>true</cbc:ElectronicPaymentUsageIndicator>
      </cac:PostAwardProcess>
    </cac:TenderingTerms>
    <cac:TenderingProcess>
      <cbc:SubmissionMethodCode listName="esubmission">required</cbc:SubmissionMethodCode>
      <cbc:GovernmentAgreementConstraintIndicator>true</cbc:GovernmentAgreementConstraintIndicator>${deadlinePeriod}
      <cac:AuctionTerms>
        <cbc:AuctionConstraintIndicator>false</cbc:AuctionConstraintIndicator>
      </cac:AuctionTerms>
      <cac:ContractingSystem>
        <cbc:ContractingSystemTypeCode listName="framework-agreement">none</cbc:ContractingSystemTypeCode>
      </cac:ContractingSystem>
      <cac:ContractingSystem>
        <cbc:ContractingSystemTypeCode listName="dps-usage">none</cbc:ContractingSystemTypeCode>
      </cac:ContractingSystem>
    </cac:TenderingProcess>
    <cac:ProcurementProject>
      <cbc:ID schemeName="InternalID">${o.reference}</cbc:ID>
      <cbc:Name languageID="ENG">${esc(o.lotTitle)}</cbc:Name>
      <cbc:Description languageID="ENG">${esc(o.lotDescription)}</cbc:Description>
      <cbc:ProcurementTypeCode listName="contract-nature">${o.nature}</cbc:ProcurementTypeCode>
      <cac:MainCommodityClassification>
        <cbc:ItemClassificationCode listName="cpv">${o.cpv}</cbc:ItemClassificationCode>
      </cac:MainCommodityClassification>
      <cac:RealizedLocation>
        <cac:Address>
          <cbc:CountrySubentityCode listName="nuts">BE100</cbc:CountrySubentityCode>
          <cac:Country>
            <cbc:IdentificationCode listName="country">BEL</cbc:IdentificationCode>
          </cac:Country>
        </cac:Address>
      </cac:RealizedLocation>
      <cac:RequestedTenderTotal>
        <cbc:EstimatedOverallContractAmount currencyID="EUR">${o.amount}</cbc:EstimatedOverallContractAmount>
      </cac:RequestedTenderTotal>
      <cac:PlannedPeriod>
        <cbc:DurationMeasure unitCode="MONTH">${o.months}</cbc:DurationMeasure>
      </cac:PlannedPeriod>
    </cac:ProcurementProject>
  </cac:ProcurementProjectLot>
</ContractNotice>
`;
}

const PARKS = {
  comment:
    'Generated by npm start: a contract notice with no error under the official eForms SDK 1.15 rules.',
  noticeId: '3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f41',
  procedureId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5e',
  activity: 'gen-pub',
  title: 'Maintenance of municipal parks',
  description: 'Mowing, pruning and litter collection in the parks of the city for four years.',
  nature: 'services',
  cpv: '77310000',
  reference: 'PARKS-1',
  lotTitle: 'Parks of the north district',
  lotDescription: 'Maintenance of the six parks north of the river.',
  amount: '480000',
  months: '48',
};

const CATERING = {
  comment:
    'Generated by npm start: a contract notice for school catering (pork), with no error under the official eForms SDK 1.15 rules.',
  noticeId: '6a0f7c55-2b1e-4d8a-9c3f-5e7d1b2a4c60',
  procedureId: '0c9e3b1a-7f24-4d6e-8a51-2b7c9d0e1f32',
  activity: 'education',
  title: 'School catering: pork for the school canteens',
  description:
    'Supply of fresh pork to the kitchens of the twelve primary school canteens of the city, for the school meals of two school years.',
  nature: 'supplies',
  cpv: FOOD_CPV,
  reference: 'SCHOOL-MEALS-1',
  lotTitle: 'Pork for the school canteens',
  lotDescription:
    'Weekly deliveries of fresh pork to the school canteens, in the quantities the school catering service orders.',
  amount: '150000',
  months: '24',
};

/** The demo notices by file name, dated from `today` (milliseconds since the epoch). */
export function demoNotices(today = Date.now()) {
  return {
    [VALID_NOTICE_FILE]: contractNotice({ ...PARKS, today }),
    [FOOD_NOTICE_FILE]: contractNotice({ ...CATERING, today }),
    [INVALID_NO_DEADLINE_FILE]: contractNotice({
      ...PARKS,
      comment:
        'Generated by npm start: the valid notice without its deadline for tenders (BT-131), which an open procedure must have.',
      noticeId: '3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f42',
      today,
      deadline: false,
    }),
    [INVALID_NO_CONTACT_FILE]: contractNotice({
      ...PARKS,
      comment:
        "Generated by npm start: the valid notice without the buyer's telephone and e-mail (BT-503, BT-506).",
      noticeId: '3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f43',
      today,
      buyerContact: false,
    }),
  };
}

/** The school-catering notice's text (kept for the agri-food hover's test). */
export function foodNoticeText(today = Date.now()) {
  return demoNotices(today)[FOOD_NOTICE_FILE];
}

/** Writes the demo notices into `workspace` (over the fixtures of the same name); returns their paths. */
export function writeSampleNotices(workspace, today = Date.now()) {
  return Object.entries(demoNotices(today)).map(([name, text]) => {
    const path = join(workspace, name);
    writeFileSync(path, text);
    return path;
  });
}
