with

source as (

    select * from {{ ref('raw_stores') }}

),

renamed as (

    select
        id as location_id,
        name as location_name,
        tax_rate as tax_price,
        {{ dbt.date_trunc('day', 'opened_at') }} as opened_date

    from source

)

select * from renamed
