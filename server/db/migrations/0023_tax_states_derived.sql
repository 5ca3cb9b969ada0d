ALTER TABLE "customer_access" DROP COLUMN "tax_self_certification_status";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "is_tax_section_action_required";